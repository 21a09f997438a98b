import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseEnv } from 'node:util';
import { createProject, projectDefaults, resolveExamples } from '../../generators';
import { BIN, freePort, http, runCli, Running } from './run-support';

// A user's shell: none of the variables the project reads is exported; the project's own `.env` has them.
const UNSET = { ADMIN_TOKEN: undefined, PORT: undefined, HOST: undefined, TRELLIS_SHUTDOWN_GRACE_MS: '2000' };

let work: string;
let project: string;
let token: string;
const running: Running[] = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'trellis-dotenv-test-'));
  const defaults = projectDefaults('demo');
  ({ root: project } = await createProject({
    cwd: work,
    name: 'demo',
    title: defaults.title,
    description: defaults.description,
    port: await freePort(),
    examples: resolveExamples(defaults.examples),
    adminToken: 'generated-token',
  }));
  token = parseEnv(readFileSync(join(project, '.env'), 'utf8')).ADMIN_TOKEN!;
  assert.equal(token, 'generated-token');
});

after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** A script of the generated package.json, as `npm run <name>` runs it (with this checkout's CLI for `trellis`). */
function script(name: string): string[] {
  const line: string = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).scripts[name];
  const [command, ...args] = line.split(' ');
  assert.equal(command, 'trellis', line);
  return args;
}

/** Starts `args` in the project, waits for the banner, checks it serves the sample with .env's token, stops it. */
async function servesWithDotEnv(args: string[]): Promise<void> {
  const run = new Running(args, project, UNSET, [BIN]);
  running.push(run);
  const url = await run.url(60_000);
  assert.equal((await http(`${url}/tasks`)).status, 200);
  assert.equal((await http(`${url}/admin/stats`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  run.kill('SIGTERM');
  assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
  assert.doesNotMatch(run.stderr, /not set/);
}

describe('a created project reads its .env in every mode', () => {
  it('serves with `npm run dev` (trellis run . --reload), ADMIN_TOKEN only in .env', async () => {
    assert.deepEqual(script('dev'), ['run', '.', '--reload']);
    await servesWithDotEnv(script('dev'));
  });

  it('serves with `npm run dev -- --workers 2`', async () => {
    await servesWithDotEnv([...script('dev'), '--workers', '2']);
  });

  it('serves with trellis run . and trellis run . --workers 2', async () => {
    await servesWithDotEnv(['run', '.']);
    await servesWithDotEnv(['run', '.', '--workers', '2']);
  });

  it('passes `npm run doctor` (trellis doctor .)', async () => {
    const result = await runCli(script('doctor'), { cwd: project, env: UNSET, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, / 0 errors, /);
  });
});
