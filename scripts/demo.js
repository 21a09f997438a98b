#!/usr/bin/env node
'use strict';
// `npm start`: the sample project as a user gets it. The first run creates ./demo with this checkout's CLI
// (`trellis create demo --yes`: not a registry install, so it packs trellis and trellis-cli from this checkout,
// `npm run pack`, and copies both tarballs into demo/vendor/), then serves it with its own `npm run dev` on
// localhost:8000. Later runs start ./demo as it is: delete demo/ to make it again from the current sources.
// Arguments go to `trellis run`: `npm start -- --port 3000`.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const demo = join(root, 'demo');
const windows = process.platform === 'win32';

/** Runs a command with the terminal attached; stops this script with its exit code when it fails. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', shell: windows });
  if (result.error) {
    process.stderr.write(`demo: ${command} could not start: ${result.error.message}\n`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(demo)) {
  run(process.execPath, [join(root, 'bin', 'trellis.js'), 'create', 'demo', '--yes'], root);
} else if (!existsSync(join(demo, 'node_modules'))) {
  run('npm', ['install', '--no-audit', '--no-fund'], demo);
}
run('npm', ['run', 'dev', '--', ...process.argv.slice(2)], demo);
