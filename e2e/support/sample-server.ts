import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const cli = join(root, 'bin', 'trellis.js');

/**
 * A temporary folder holding a fresh sample project made by `trellis create` (not installed: this checkout's
 * `trellis run` brings the framework); `remove()` deletes it.
 */
export function createSampleProject(): { dir: string; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'trellis-e2e-'));
  const args = [cli, 'create', 'demo', '--yes', '--no-git', '--no-install'];
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

export interface RunningApp {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `trellis run <dir> --port 0 ...args` and resolves once the banner shows the address. ADMIN_TOKEN comes
 * from the environment, as in production.
 */
export function runProject(dir: string, args: string[] = []): Promise<RunningApp> {
  const child = spawn(process.execPath, [cli, 'run', dir, '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', ADMIN_TOKEN: adminToken(dir) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 15 s:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Running app .* on (http:\/\/[^\s]+:(\d+))/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        port: Number(match[2]),
        child,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`trellis run exited with ${code}:\n${output}`));
    });
  });
}
