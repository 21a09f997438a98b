'use strict';
// The benchmark's peers (Fastify, Hono, NestJS, routing-controllers) live in bench/package.json, apart from
// trellis's own dependencies: `npm run bench` installs them from bench/package-lock.json when one is missing.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BENCH = path.join(__dirname, '..');

/** The peers in bench/package.json that bench/node_modules lacks. */
function missingPeers() {
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(BENCH, 'package.json'), 'utf8'));
  return Object.keys(dependencies).filter((name) => !fs.existsSync(path.join(BENCH, 'node_modules', name, 'package.json')));
}

/** Runs `npm ci` in bench/ when a peer is missing; throws when it fails. */
function installPeers(log) {
  const missing = missingPeers();
  if (missing.length === 0) return;
  log(`Installing the benchmark's peers in bench/ (missing: ${missing.join(', ')})`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: BENCH, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error(`npm ci in bench/ failed (exit ${result.status})`);
}

module.exports = { installPeers, missingPeers };
