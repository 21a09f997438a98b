import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const cacheDir = join(root, 'node_modules', '.cache', 'trellis-pack');

/** What the tarball is made of: the compiled folders (without their tests), the files shipped as they are, the build's inputs. */
const COMPILED = ['framework', 'runtime', 'cli', 'generators'];
const SHIPPED = ['bin', 'blueprints', 'register.js', 'README.md', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js'];
const STALE_LOCK_MS = 5 * 60_000;
const KEEP = 10;

/**
 * The absolute path of a tarball of the current source made by `npm pack` (its `prepack` builds dist/).
 * Cached in node_modules/.cache/trellis-pack by a hash of the sources, so the test files (each its own
 * process) pack once between them; a process that finds another one packing waits for its tarball.
 * @example
 * const tarball = await packedTrellis();
 * writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { trellis: `file:${tarball}` } }));
 * await installInto(dir);
 */
export async function packedTrellis(): Promise<string> {
  const tarball = join(cacheDir, `${sourceHash()}.tgz`);
  const lock = `${tarball}.lock`;
  mkdirSync(cacheDir, { recursive: true });
  for (;;) {
    if (existsSync(tarball)) return used(tarball);
    if (takeLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    if (existsSync(tarball)) return used(tarball);
    const out = mkdtempSync(join(tmpdir(), 'trellis-pack-'));
    try {
      const { stdout } = await npm(['pack', '--json', '--pack-destination', out], root).catch((error: NpmError) => {
        throw new Error(`npm pack failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      });
      const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
      // copied then renamed: the temporary folder may be on another file system, and readers see a whole file
      copyFileSync(join(out, filename), `${tarball}.${process.pid}.tmp`);
      renameSync(`${tarball}.${process.pid}.tmp`, tarball);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    prune();
    return tarball;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Marks a cached tarball as just used (pruning keeps the most recently used ones). */
function used(tarball: string): string {
  const now = new Date();
  try {
    utimesSync(tarball, now, now);
  } catch {
    // another user's file in a shared cache: it is still usable
  }
  return tarball;
}

/** Keeps the KEEP most recently used tarballs (one per source state; other checkouts may share the cache). */
function prune(): void {
  const tarballs = readdirSync(cacheDir)
    .filter((name) => name.endsWith('.tgz'))
    .map((name) => ({ file: join(cacheDir, name), time: statSync(join(cacheDir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const { file } of tarballs.slice(KEEP)) rmSync(file, { force: true });
}

/**
 * Runs `npm install --no-audit --no-fund --prefer-offline ...extra` in `dir` (a project whose package.json
 * is written); rejects with npm's output when it fails.
 * @example
 * await installInto(dir, ['--omit=dev']);
 */
export async function installInto(dir: string, extra: string[] = []): Promise<void> {
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', ...extra], dir).catch((error: NpmError) => {
    throw new Error(`npm install failed in ${dir}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
}

type NpmError = Error & { stdout?: string; stderr?: string };

/** Runs npm in `cwd` without the npm_* variables of an enclosing `npm test` (its local prefix would win over `cwd`). */
function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_') && !['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry'].includes(lower)) continue;
    if (key === 'NODE_TEST_CONTEXT' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  const bin = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return run(bin, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' });
}

/** A hash of every file that goes into the tarball or into building it. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const entry of [...COMPILED, ...SHIPPED]) {
    const path = join(root, entry);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) {
      files.push(path);
      continue;
    }
    for (const name of readdirSync(path, { recursive: true }) as string[]) {
      const file = join(path, name);
      if (COMPILED.includes(entry) && `${sep}${name}`.includes(`${sep}tests${sep}`)) continue;
      if (name.split(sep).includes('node_modules') || !statSync(file).isFile()) continue;
      files.push(file);
    }
  }
  for (const file of files.sort()) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Takes the packing lock (a folder holding the owner's pid); a lock whose owner is gone or that is too old is broken. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    const age = Date.now() - statSync(lock).mtimeMs;
    if (age > STALE_LOCK_MS || (pid > 0 && !alive(pid))) rmSync(lock, { recursive: true, force: true });
  } catch {
    // the pid file is not written yet, or the lock just went away: try again on the next turn
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
