#!/usr/bin/env node
'use strict';
// `npm run pack`: the two packages this repository publishes, as tarballs, from one build of dist/:
//   trellis-<version>.tgz      the framework and the production runtime (package.json `files`);
//   trellis-cli-<version>.tgz  the command-line tool (cli/package.json): bin/, register.js, cli/loader/*.js,
//                              blueprints/ and the compiled cli/ and generators/, staged in a temporary folder.
// They land in node_modules/.cache/trellis-pack/<hash of their sources>/, reused while the sources are
// unchanged (tests and `trellis create` from a checkout pack once between them; a process that finds another
// one packing waits for it). The folder's path is the last line on stdout; `--out <dir>` also copies both
// tarballs there.
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative, resolve, sep } = require('node:path');

const root = join(__dirname, '..');
const cacheDir = join(root, 'node_modules', '.cache', 'trellis-pack');
/** Compiled into dist/ (their tests left out). */
const COMPILED = ['framework', 'runtime', 'cli', 'generators'];
/** Shipped as they are, or inputs of the build (the lock: the runtime bundle and the docs assets are the installed versions). */
const SHIPPED = ['bin', 'blueprints', 'register.js', 'README.md', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js', 'scripts/pack.js'];
/** What the CLI package holds besides its package.json (cli/package.json), from the checkout and from dist/. */
const CLI_FILES = ['bin', 'register.js', 'README.md', 'blueprints', join('dist', 'cli'), join('dist', 'generators')];
const STALE_LOCK_MS = 10 * 60_000;
const KEEP = 10;

function main() {
  const out = process.argv.includes('--out') ? resolve(process.argv[process.argv.indexOf('--out') + 1] ?? '.') : undefined;
  const folder = packed();
  if (out) {
    fs.mkdirSync(out, { recursive: true });
    for (const name of fs.readdirSync(folder)) fs.copyFileSync(join(folder, name), join(out, name));
  }
  process.stdout.write(`${out ?? folder}\n`);
}

/** The cache folder holding both tarballs of the current sources, packed now if it is not there. */
function packed() {
  const folder = join(cacheDir, sourceHash());
  const lock = `${folder}.lock`;
  fs.mkdirSync(cacheDir, { recursive: true });
  while (!fs.existsSync(folder) && !takeLock(lock)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  if (fs.existsSync(folder)) return used(folder);
  try {
    const staging = fs.mkdtempSync(join(cacheDir, '.packing-'));
    try {
      packInto(staging);
      fs.renameSync(staging, folder); // readers see both tarballs or none
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    prune();
    return folder;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds dist/ and writes both tarballs into `dir`. */
function packInto(dir) {
  run(process.execPath, [join(root, 'scripts', 'build.js')], root);
  npmPack(root, dir);
  const stage = fs.mkdtempSync(join(tmpdir(), 'trellis-cli-stage-'));
  try {
    fs.copyFileSync(join(root, 'cli', 'package.json'), join(stage, 'package.json'));
    for (const path of CLI_FILES) fs.cpSync(join(root, path), join(stage, path), { recursive: true });
    fs.mkdirSync(join(stage, 'cli', 'loader'), { recursive: true });
    for (const name of fs.readdirSync(join(root, 'cli', 'loader')).filter((name) => name.endsWith('.js'))) {
      fs.copyFileSync(join(root, 'cli', 'loader', name), join(stage, 'cli', 'loader', name));
    }
    npmPack(stage, dir);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function npmPack(from, dir) {
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], from);
}

/** Runs a command to its end; its output is shown only when it fails (this script's stdout is the folder). */
function run(command, args, cwd) {
  const env = { ...process.env };
  // An enclosing `npm test`/`npm run` would make npm pack the package of its own prefix rather than `cwd`'s.
  for (const key of Object.keys(env)) if (/^npm_(?!config_(cache|userconfig|registry)$)/i.test(key)) delete env[key];
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  process.stderr.write(`pack: ${command} ${args.join(' ')} failed in ${cwd}${result.error ? `: ${result.error.message}` : ''}\n`);
  process.exit(1);
}

/** A hash of every file that goes into either tarball or into building them. */
function sourceHash() {
  const hash = createHash('sha256');
  const files = [];
  for (const entry of [...COMPILED, ...SHIPPED]) {
    const path = join(root, entry);
    if (!fs.existsSync(path)) continue;
    if (!fs.statSync(path).isDirectory()) {
      files.push(path);
      continue;
    }
    for (const name of /** @type {string[]} */ (fs.readdirSync(path, { recursive: true }))) {
      const file = join(path, name);
      if (COMPILED.includes(entry) && `${sep}${name}`.includes(`${sep}tests${sep}`)) continue;
      if (name.split(sep).includes('node_modules') || !fs.statSync(file).isFile()) continue;
      files.push(file);
    }
  }
  for (const file of files.sort()) hash.update(relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Marks a cached folder as just used (pruning keeps the most recently used ones). */
function used(folder) {
  const now = new Date();
  try {
    fs.utimesSync(folder, now, now);
  } catch {
    // another user's folder in a shared cache: it is still usable
  }
  return folder;
}

/** Keeps the KEEP most recently used folders (one per source state). */
function prune() {
  const folders = fs
    .readdirSync(cacheDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9a-f]{16}$/.test(entry.name))
    .map((entry) => ({ path: join(cacheDir, entry.name), time: fs.statSync(join(cacheDir, entry.name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const { path } of folders.slice(KEEP)) fs.rmSync(path, { recursive: true, force: true });
}

/** Takes the packing lock (a folder holding the owner's pid); a lock whose owner is gone or that is too old is broken. */
function takeLock(lock) {
  try {
    fs.mkdirSync(lock);
    fs.writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
  }
  try {
    const pid = Number(fs.readFileSync(join(lock, 'pid'), 'utf8'));
    const age = Date.now() - fs.statSync(lock).mtimeMs;
    if (age > STALE_LOCK_MS || (pid > 0 && !alive(pid))) fs.rmSync(lock, { recursive: true, force: true });
  } catch {
    // the pid file is not written yet, or the lock just went away: try again on the next turn
  }
  return false;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

main();
