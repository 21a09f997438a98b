import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(__dirname, '..', '..');
export const fixtures = join(__dirname, 'fixtures');
/** The repository's own compiler: a consumer runs plain `tsc`, no trellis tooling. */
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const rootPackage = require(join(root, 'package.json')) as { devDependencies: Record<string, string> };

/** The versions a consumer project would pin for the libraries trellis shares with it. */
export const consumerDependencies = (tarball: string): Record<string, string> => ({
  trellis: `file:${tarball}`,
  'class-validator': '^0.14.4',
  'class-transformer': '^0.5.1',
  'reflect-metadata': '^0.2.2',
  '@types/node': rootPackage.devDependencies['@types/node'],
});

/** Writes `package.json` of a consumer project in `dir` and copies the named fixtures into it. */
export function consumerProject(dir: string, dependencies: Record<string, string>, fixtureNames: string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }, null, 2));
  for (const name of fixtureNames) cpSync(join(fixtures, name), join(dir, name), { recursive: true });
}

export interface Finished {
  code: number | null;
  output: string;
}

/** Runs `node ...args` in `cwd` to its end; resolves with the exit code and stdout+stderr (rejects after 90 s). */
export function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not finish within 90 s:\n${output}`));
    }, 90_000);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Compiles several projects (tsconfig files or folders, relative to `cwd`) with one `tsc -b` (one process
 * shares the parsed @types/node between them); resolves with each project's errors by its path as given,
 * '' when it compiled cleanly.
 */
export async function compileAll(projects: string[], cwd: string): Promise<Map<string, string>> {
  const { output } = await runNode([tsc, '-b', '--verbose', ...projects], cwd);
  const errors = new Map(projects.map((project) => [project, '']));
  // --verbose announces each project before its diagnostics: "Building project '/abs/cjs/tsconfig.json'..."
  let current: string | undefined;
  for (const line of output.split('\n')) {
    const building = /Building project '([^']+)'/.exec(line);
    if (building) {
      current = projects.find((project) => building[1] === join(cwd, project) || building[1] === join(cwd, project, 'tsconfig.json'));
      continue;
    }
    if (current !== undefined && /error TS\d+/.test(line)) errors.set(current, `${errors.get(current)}${line}\n`);
  }
  return errors;
}

export interface Running {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node ...args` in `cwd` and resolves once it prints `listening on <url>` (or `on <url>`, trellis run's banner). */
export function startNode(args: string[], cwd: string): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd, env: cleanEnv({ NO_COLOR: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no address printed within 15 s:\n${output}`)), 15_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = / on (http:\/\/[^\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          await closed;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => fail(new Error(`exited with ${code} before printing its address:\n${output}`)));
  });
}

/** A fetch that resolves to the status and the parsed (JSON) or raw body. */
export async function request(url: string, init?: { json?: unknown }): Promise<{ status: number; body: any }> {
  const response = await fetch(url, init?.json === undefined ? undefined : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(init.json),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, body: json ? JSON.parse(text) : text };
}

// The test runner's own variables would make a fixture's node think it runs under `node --test`.
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  return env;
}
