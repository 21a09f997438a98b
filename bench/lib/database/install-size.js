'use strict';
// What `--db` adds to a production install: each sample's source (package.json as `trellis create` wrote it, trellis
// and trellis-cli taken from tarballs of this checkout), installed with `npm install --omit=dev`; the size of
// node_modules on disk (du) and its package count.
const { execFile, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { ROOT } = require('../server');

const run = promisify(execFile);

// Run through register.js (the helpers are TypeScript), as ../built-sample.js installs, with --omit=dev.
const INSTALL = `
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { packedTarballs, installInto } = require('./e2e/support/packed-trellis.ts');
const dir = process.argv[1];
(async () => {
  const file = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const tarballs = await packedTarballs();
  manifest.dependencies.trellis = 'file:' + tarballs.trellis;
  manifest.devDependencies['trellis-cli'] = 'file:' + tarballs.cli;
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\\n');
  await installInto(dir, ['--omit=dev']);
})().catch((error) => {
  process.stderr.write(String(error.message));
  process.exit(1);
});`;

/** The packages under `modules`: every folder holding a package.json directly under a node_modules (or its @scope). */
function countPackages(modules) {
  let count = 0;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const folder = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(folder);
        continue;
      }
      if (fs.existsSync(path.join(folder, 'package.json'))) count++;
      const nested = path.join(folder, 'node_modules');
      if (fs.existsSync(nested)) visit(nested);
    }
  };
  visit(modules);
  return count;
}

/**
 * Installs a copy of `builtDir`'s project (no node_modules, dist or data) in `workDir/<name>` for production;
 * resolves to `{ bytes, packages }` of its node_modules (bytes: `du -sk`, disk usage, times 1024).
 */
async function productionInstall(builtDir, workDir, name) {
  const dir = path.join(workDir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  const skip = new Set(['node_modules', 'dist', 'data', 'package-lock.json']);
  fs.cpSync(builtDir, dir, { recursive: true, filter: (file) => !skip.has(path.relative(builtDir, file).split(path.sep)[0]) });
  await run(process.execPath, ['-r', './register.js', '-e', INSTALL, dir], { cwd: ROOT, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  const modules = path.join(dir, 'node_modules');
  const kib = Number(execFileSync('du', ['-sk', modules], { encoding: 'utf8' }).split('\t')[0]);
  return { bytes: kib * 1024, packages: countPackages(modules) };
}

module.exports = { productionInstall, countPackages };
