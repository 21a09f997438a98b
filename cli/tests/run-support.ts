import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { get as getHttp } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../runtime/tests/support';

export { cleanup, copyFixture, FIXTURES, ROOT } from '../../runtime/tests/support';
export const BIN = join(ROOT, 'bin', 'trellis.js');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (it must end by itself within `timeoutMs`); `env` is added to this process's. */
export function runCli(args: string[], options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`trellis ${args.join(' ')} did not finish: ${stdout}${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A `trellis run` process (or a build's `node dist/main.js`), read as it goes. */
export class Running {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #child: ChildProcessWithoutNullStreams;
  #waiters: Array<() => void> = [];

  /** `command`: what node runs before `args` (a build's `main.js` instead of the CLI's `run`). */
  constructor(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}, command: string[] = [BIN, 'run']) {
    this.#child = spawn(process.execPath, [...command, ...args], { cwd, env: { ...process.env, ...env } });
    this.#child.stdout.on('data', (chunk) => this.#append('stdout', chunk));
    this.#child.stderr.on('data', (chunk) => this.#append('stderr', chunk));
    this.exited = new Promise((resolve) => this.#child.on('close', (code, signal) => {
      this.#wake();
      resolve({ code, signal });
    }));
  }

  get pid(): number {
    return this.#child.pid!;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.#child.kill(signal);
  }

  /** Resolves once stdout matches (the match), rejects after `timeoutMs` or when the process ends first. */
  async waitFor(pattern: RegExp, timeoutMs = 20_000, from = 0): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.exited.then(() => (ended = true));
    for (;;) {
      const match = this.stdout.slice(from).match(pattern);
      if (match) return match;
      if (ended) throw new Error(`process ended before ${pattern}:\n${this.stdout}\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.stdout}\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the banner's last line (`lastLine`: a build's banner has no doctor hint); returns the address it announced. */
  async url(timeoutMs?: number, lastLine = /for a more detailed analysis\.\n/): Promise<string> {
    await this.waitFor(lastLine, timeoutMs);
    return this.stdout.match(/Running app .+ on (http:\/\/\S+)/)![1];
  }

  /** Stops the process if it still runs (for `after` hooks). */
  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.kill('SIGKILL');
      await this.exited;
    }
  }

  #append(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    this[stream] += chunk.toString();
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

/** A GET (or other method) against a running server, returning status, headers and body text. */
export async function http(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A GET on a new connection (no pooled socket a dead process may have held). */
export function freshGet(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    getHttp(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

/** Ids of the live (not zombie) processes whose parent is `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const [state, parent] = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
        return parent === String(pid) && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A TCP server on 127.0.0.1:`port` (0: any free port), e.g. to hold a port. */
export function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
