import { spawn, type ChildProcess } from 'node:child_process';

export interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command to its end (stdout and stderr together in `output`); fails the test after `timeoutMs`. */
export function runCommand(argv: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${argv.join(' ')} did not finish within ${options.timeoutMs ?? 120_000} ms:\n${output}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject).on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Like `runCommand`, throwing with the output when the exit code is not 0. */
export async function mustRun(argv: string[], options: Parameters<typeof runCommand>[1]): Promise<string> {
  const { code, output } = await runCommand(argv, options);
  if (code !== 0) throw new Error(`${argv.join(' ')} exited with ${code}:\n${output}`);
  return output;
}

export interface Serving {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a server command and resolves once its banner says `Running app ... on <url>`. With `group`, the
 * command gets its own process group and signals go to the whole group: `npm start` runs the server as a
 * grandchild, which a signal must reach too (as a container's stop does).
 */
export function startServing(
  argv: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; group?: boolean } = {},
): Promise<Serving> {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      if (options.group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  let output = '';
  // In a group the server may be a grandchild (`npm start`) that prints its last lines after npm has exited:
  // wait for the output pipes to close (every process of the group gone), not for the child's exit.
  const exited = new Promise<number | null>((resolve) => child.on(options.group ? 'close' : 'exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const timer = setTimeout(() => {
      signal('SIGKILL');
      reject(new Error(`no banner within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /Running app .* on (http:\/\/[^\s]+:(\d+))/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        port: Number(match[2]),
        child,
        output: () => output,
        stop: (name = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) signal(name);
          return exited;
        },
      });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited with ${code} before serving:\n${output}`));
    });
  });
}
