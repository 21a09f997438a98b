#!/usr/bin/env node
'use strict';
// `npm start`: creates the sample project in ./demo on first run, then serves it on localhost:8000.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const cli = join(root, 'bin', 'trellis.js');
const run = (args) => spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;

if (!existsSync(join(root, 'demo'))) {
  const status = run(['create', 'demo', '--yes']);
  if (status !== 0) process.exit(status);
}
process.exit(run(['run', 'demo', ...process.argv.slice(2)]));
