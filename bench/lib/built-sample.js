'use strict';
// The sample project in its production form for the `node dist/main.js` contender: a copy of the sample with
// trellis compiled as its package ships it (tsc of tsconfig.build.json: dist/ and package.json) in its
// node_modules, next to the libraries the sample imports (linked from this checkout), then `trellis build`.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { ROOT } = require('./server');

const run = promisify(execFile);
const LINKED = ['class-validator', 'class-transformer', 'reflect-metadata', '@types'];

/**
 * Resolves to `{ dir }` (the built copy of `sampleDir`: `node <dir>/dist/main.js` serves it) or `{ error }`.
 * @param {string} sampleDir
 * @param {string} workDir
 */
async function buildSample(sampleDir, workDir) {
  try {
    const trellis = path.join(workDir, 'trellis-package');
    const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(trellis, 'dist'), '--sourceMap', 'false'], { cwd: ROOT });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(trellis, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(trellis, 'node_modules'));

    const dir = path.join(workDir, 'bench-built');
    fs.cpSync(sampleDir, dir, { recursive: true, filter: (file) => !file.split(path.sep).includes('node_modules') });
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.rmSync(path.join(dir, 'node_modules', 'trellis'), { recursive: true, force: true });
    fs.symlinkSync(trellis, path.join(dir, 'node_modules', 'trellis'));
    for (const name of LINKED) fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
    await run(process.execPath, [path.join(ROOT, 'bin', 'trellis.js'), 'build', dir], { cwd: workDir, timeout: 120_000 });
    return { dir };
  } catch (caught) {
    const error = /** @type {Error & { stdout?: string, stderr?: string }} */ (caught);
    const text = `${error.stderr ?? ''}${error.stdout ?? ''}` || error.message;
    return { error: text.trim().split('\n').slice(-3).join(' ') };
  }
}

module.exports = { buildSample };
