import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packedTarballs } from '../../e2e/support/packed-trellis';
import { mustRun, startServing, type Serving } from '../../e2e/support/project-process';

// A user's path with a database, in real processes and one npm install: `trellis create --db` from the packed
// tarballs, the project's own `npm test`, `npm run dev` keeping a created task across a restart in data/db
// (gitignored), then `trellis add resource note` and the project's tests and typecheck again.

const CLI = join(__dirname, '..', '..', 'bin', 'trellis.js');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'trellis-create-db-'));
const project = join(work, 'shop');
const servers: Serving[] = [];
// The embedded database in data/db, whatever the environment running the tests says.
const env = { DATABASE_URL: '', ADMIN_TOKEN: undefined };
// PGlite's initdb and the project's compile take tens of seconds on a busy 2-core machine.
const SLOW = 300_000;

before(async () => {
  const { trellis } = await packedTarballs();
  const started = Date.now();
  await mustRun([process.execPath, CLI, 'create', 'shop', '--yes', '--db', '--trellis-spec', trellis], { cwd: work, timeoutMs: 600_000 });
  console.log(`# create --db with npm install: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
after(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  rmSync(work, { recursive: true, force: true });
});

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    console.log(`# ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function dev(): Promise<Serving> {
  const server = await startServing([NPM, 'run', 'dev', '--', '--host', '127.0.0.1', '--port', '0'], { cwd: project, group: true, timeoutMs: SLOW, env });
  servers.push(server);
  return server;
}

describe('a --db project, end to end', { timeout: 1_800_000 }, () => {
  it('installs kysely, pg and PGlite and passes its own npm test', async () => {
    for (const name of ['kysely', 'pg', '@electric-sql/pglite']) assert.ok(existsSync(join(project, 'node_modules', name, 'package.json')), name);
    const output = await timed('npm test', () => mustRun([NPM, 'test'], { cwd: project, env, timeoutMs: SLOW }));
    assert.match(output, /^# pass 9$/m);
    assert.match(output, /^# fail 0$/m);
  });

  it('keeps a task created through npm run dev across a restart, in data/db, which git ignores', async () => {
    const first = await timed('npm run dev, first start (initdb, migrations)', dev);
    const created = await fetch(`${first.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Persist me' }) });
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { id: 3, title: 'Persist me', description: '', completed: false });
    await first.stop('SIGTERM');
    assert.ok(existsSync(join(project, 'data', 'db')));
    assert.equal(execFileSync('git', ['check-ignore', 'data/db'], { cwd: project, encoding: 'utf8' }).trim(), 'data/db');
    assert.ok(!execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: project, encoding: 'utf8' }).includes('data/'));

    const second = await timed('npm run dev, second start', dev);
    assert.deepEqual(await (await fetch(`${second.url}/tasks/3`)).json(), { id: 3, title: 'Persist me', description: '', completed: false });
    assert.deepEqual(((await (await fetch(`${second.url}/tasks`)).json()) as Array<{ id: number }>).map((task) => task.id), [1, 2, 3]);
    await second.stop('SIGTERM');
  });

  it('adds a resource whose tests pass with the others, and which typechecks', async () => {
    const added = await mustRun(['npx', '--no-install', 'trellis', 'add', 'resource', 'note'], { cwd: project });
    assert.match(added, /^ {2}CREATE migrations\/0004_create_note\.ts \(\d+ bytes\)$/m);
    assert.match(added, /^ {2}UPDATE db\/schema\.ts \(\d+ bytes\)$/m);
    const output = await timed('npm test with the resource', () => mustRun([NPM, 'test'], { cwd: project, env, timeoutMs: SLOW }));
    assert.match(output, /^# pass 13$/m);
    assert.match(output, /^# fail 0$/m);
    await timed('npm run typecheck', () => mustRun([NPM, 'run', 'typecheck'], { cwd: project, timeoutMs: SLOW }));
    assert.match(readFileSync(join(project, 'db', 'schema.ts'), 'utf8'), /^ {2}note: NoteTable;$/m);
  });
});
