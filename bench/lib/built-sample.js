'use strict';
// The sample project in its production form, for the `node dist/main.js` contender: a copy of the sample whose
// package.json takes trellis and trellis-cli from tarballs of this checkout (`npm run pack`, cached by scripts/pack.js),
// installed by npm as a user installs it (no links into this checkout), then built by `trellis build`.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { ROOT } = require('./server');

const run = promisify(execFile);

// Run through register.js (the helper is TypeScript): packs once, points the project at the tarball, installs.
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
  await installInto(dir);
})().catch((error) => {
  process.stderr.write(String(error.message));
  process.exit(1);
});`;

/**
 * Resolves to `{ dir }` (the built copy of `sampleDir`: `node <dir>/dist/main.js` serves it) or `{ error }`.
 * @param {string} sampleDir
 * @param {string} workDir
 */
async function buildSample(sampleDir, workDir) {
  try {
    const dir = path.join(workDir, 'bench-built');
    fs.cpSync(sampleDir, dir, { recursive: true, filter: (file) => !file.split(path.sep).includes('node_modules') });
    await run(process.execPath, ['-r', './register.js', '-e', INSTALL, dir], { cwd: ROOT, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    await run(process.execPath, [path.join(ROOT, 'bin', 'trellis.js'), 'build', dir], { cwd: workDir, timeout: 120_000 });
    return { dir };
  } catch (caught) {
    const error = /** @type {Error & { stdout?: string, stderr?: string }} */ (caught);
    const text = `${error.stderr ?? ''}${error.stdout ?? ''}` || error.message;
    return { error: text.trim().split('\n').slice(-3).join(' ') };
  }
}

module.exports = { buildSample };
