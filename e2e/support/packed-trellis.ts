import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const { version } = require(join(root, 'package.json')) as { version: string };

export interface Tarballs {
  /** The folder holding both (npm's cache of this checkout's current sources: do not write into it). */
  dir: string;
  /** trellis-<version>.tgz: the framework and the production runtime. */
  trellis: string;
  /** trellis-cli-<version>.tgz: the command-line tool. */
  cli: string;
}

/**
 * The tarballs of the current sources, as `npm run pack` (scripts/pack.js) writes them: cached in
 * node_modules/.cache/trellis-pack by a hash of the sources, so the test files (each its own process) pack
 * once between them; a process that finds another one packing waits for its tarballs.
 * @example
 * const { trellis, cli } = await packedTarballs();
 * writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { trellis: `file:${trellis}` } }));
 */
export async function packedTarballs(): Promise<Tarballs> {
  const { stdout } = await run(process.execPath, [join(root, 'scripts', 'pack.js')], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: withoutNpm() }).catch(
    (error: NpmError) => {
      throw new Error(`scripts/pack.js failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    },
  );
  const dir = stdout.trim().split('\n').pop()!;
  return { dir, trellis: join(dir, `trellis-${version}.tgz`), cli: join(dir, `trellis-cli-${version}.tgz`) };
}

/**
 * The absolute path of the trellis tarball of the current sources ({@link packedTarballs}).
 * @example
 * const tarball = await packedTrellis();
 * await installInto(dir);
 */
export async function packedTrellis(): Promise<string> {
  return (await packedTarballs()).trellis;
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
  const bin = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return run(bin, args, { cwd, env: withoutNpm(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' });
}

/** This process's environment without an enclosing `npm test`'s npm_* variables and the test runner's own. */
function withoutNpm(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith('npm_') && !['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry'].includes(lower)) continue;
    if (key === 'NODE_TEST_CONTEXT' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return env;
}
