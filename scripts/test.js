#!/usr/bin/env node
'use strict';
// Runs every *.test.ts under the test folders with node's test runner and the swc loader
// (node 20's --test takes no globs). Extra arguments narrow the run: `npm test -- framework`.
const { readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const folders = ['framework/tests', 'runtime/tests', 'generators/tests', 'cli/tests', 'e2e'];
const filters = process.argv.slice(2);
const files = folders
  .filter((folder) => existsSync(join(root, folder)))
  .flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true })
      .filter((name) => String(name).endsWith('.test.ts') && !String(name).includes('fixtures'))
      .map((name) => join(folder, String(name))),
  )
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();

if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
// A file still running after 20 minutes (the longest suite takes about 2) is stopped and reported as timed out, by name,
// and the run goes on: node 20 applies --test-timeout to each file's process, so even a synchronous loop (a regex
// backtracking) fails the run instead of holding it until CI's own limit.
const FILE_TIMEOUT_MS = 20 * 60_000;
const result = spawnSync(process.execPath, ['--require', './register.js', '--test', `--test-timeout=${FILE_TIMEOUT_MS}`, ...files], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
