import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServing, type Serving } from './project-process';

const root = join(__dirname, '..', '..');
const cli = join(root, 'bin', 'trellis.js');
const { version } = require(join(root, 'package.json')) as { version: string };

/**
 * A temporary folder holding a fresh sample project made by `trellis create` (not installed: this checkout's
 * `trellis run` brings the framework); `remove()` deletes it.
 */
export function createSampleProject(): { dir: string; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'trellis-e2e-'));
  // The registry's spec: from this checkout, create would otherwise pack it (nothing is installed here).
  const args = [cli, 'create', 'demo', '--yes', '--no-git', '--no-install', '--trellis-spec', `^${version}`];
  const created = spawnSync(process.execPath, args, { cwd: parent, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`trellis create failed: ${created.stderr}`);
  return { dir: join(parent, 'demo'), remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** The admin token `create` wrote to the project's `.env` (config.yaml reads it as `${ADMIN_TOKEN}`). */
export function adminToken(dir: string): string {
  const line = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(join(dir, '.env'), 'utf8'));
  if (!line) throw new Error(`no ADMIN_TOKEN in ${dir}/.env`);
  return line[1];
}

/** A `trellis run` of the sample, started by `runProject`. */
export type RunningApp = Serving;

/**
 * Starts `trellis run <dir> --port 0 ...args` and resolves once the banner shows the address (failing after
 * `timeoutMs`). ADMIN_TOKEN comes from the environment, as in production.
 */
export function runProject(dir: string, args: string[] = [], timeoutMs = 120_000): Promise<RunningApp> {
  // Compiling the project's TypeScript takes seconds of CPU: tens of seconds on 2 busy cores.
  return startServing([process.execPath, cli, 'run', dir, '--host', '127.0.0.1', '--port', '0', ...args], { env: { ADMIN_TOKEN: adminToken(dir) }, timeoutMs });
}
