#!/usr/bin/env node
'use strict';
// `npm start`: the sample project as a user gets it. The first run packs this checkout (`npm pack` into .demo/),
// creates ./demo depending on that tarball (`trellis create` installs it), then serves it with `npm run dev` on
// localhost:8000. Later runs start ./demo as it is: delete demo/ to make it again from the current sources.
// Arguments go to `trellis run`: `npm start -- --port 3000`.
const { existsSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const demo = join(root, 'demo');
const packs = join(root, '.demo');
const windows = process.platform === 'win32';

/** Runs a command with the terminal attached; stops this script with its exit code when it fails. */
function run(command, args, cwd, options = {}) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', shell: windows, ...options });
  if (result.error) fail(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result;
}

function fail(message) {
  process.stderr.write(`demo: ${message}\n`);
  process.exit(1);
}

/** `npm pack` of this checkout into .demo/ (emptied first); the tarball's path relative to the checkout. */
function pack() {
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs);
  console.log('Packing trellis (npm pack)...');
  // The tarball is the only file in .demo/: its name is read from there, not from npm's output (where the
  // prepack script's lines would mix with it).
  run('npm', ['pack', '--pack-destination', packs, '--silent'], root, { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarballs = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
  if (tarballs.length !== 1) fail(`npm pack made ${tarballs.length} tarballs in ${packs}`);
  return `./.demo/${tarballs[0]}`;
}

if (!existsSync(demo)) {
  const tarball = pack();
  run(process.execPath, [join(root, 'bin', 'trellis.js'), 'create', 'demo', '--yes', '--trellis-spec', tarball], root);
} else if (!existsSync(join(demo, 'node_modules'))) {
  run('npm', ['install', '--no-audit', '--no-fund'], demo);
}
run('npm', ['run', 'dev', '--', ...process.argv.slice(2)], demo);
