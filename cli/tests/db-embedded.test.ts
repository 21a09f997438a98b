import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { addMigration, dbProject, removeProjects } from './db-support';
import { http, runCli, Running } from './run-support';

// A start compiles the project and opens PGlite (some 4 s of CPU): 10-30 s on a busy 2-core machine.
const STARTED_WITHIN_MS = 180_000;
// The embedded database: no DATABASE_URL, whatever this process's environment holds.
const EMBEDDED = { DATABASE_URL: '' };

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  removeProjects();
});

function start(dir: string, ...flags: string[]): Running {
  const run = new Running(['.', '--port', '0', '--no-access-log', ...flags], dir, EMBEDDED);
  running.push(run);
  return run;
}

async function stop(run: Running): Promise<void> {
  run.kill('SIGTERM');
  assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
}

const json = { 'content-type': 'application/json' };
const post = (url: string, text: string) => http(`${url}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ text }) });
const notes = async (url: string) => JSON.parse((await http(`${url}/notes`)).text) as Array<{ id: number; text: string }>;
const LOCKED = /^trellis: The embedded database .*data\/db is open in another process \(pid (\d+), .*set DATABASE_URL to a PostgreSQL server to run several processes\n$/;

describe('trellis run on the embedded database', () => {
  it('creates data/db, migrates it, and keeps what was written across two runs', async () => {
    const dir = dbProject();
    const first = start(dir);
    const url = await first.url(STARTED_WITHIN_MS);
    assert.match(first.stdout, /\n {2}Database: {4}embedded \(PGlite\) in data\/db\n/);
    assert.ok(existsSync(join(dir, 'data', 'db', 'PG_VERSION')));
    const created = await post(url, 'first run');
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(JSON.parse(created.text), { id: 1, text: 'first run' });
    assert.equal((await http(`${url}/readyz`)).status, 200);
    await stop(first);
    assert.equal(existsSync(join(dir, 'data', 'db.lock')), false);

    const second = start(dir);
    const again = await second.url(STARTED_WITHIN_MS);
    assert.deepEqual(await notes(again), [{ id: 1, text: 'first run' }]);
    assert.deepEqual(JSON.parse((await post(again, 'second run')).text), { id: 2, text: 'second run' });
    await stop(second);
  });

  it('refuses a second process on the same folder in one line naming DATABASE_URL: trellis run, trellis db migrate', async () => {
    const dir = dbProject();
    const first = start(dir);
    const url = await first.url(STARTED_WITHIN_MS);
    await post(url, 'kept');

    const second = await runCli(['run', '.', '--port', '0'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(second.code, 1);
    assert.match(second.stderr, LOCKED);
    assert.equal(second.stderr.match(LOCKED)![1], String(first.pid));
    const migrate = await runCli(['db', 'migrate', '.'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(migrate.code, 1);
    assert.match(migrate.stderr, LOCKED);

    // The first process kept its folder and serves on.
    assert.deepEqual(await notes(url), [{ id: 1, text: 'kept' }]);
    await stop(first);
  });

  it('stops --workers before forking, in one line naming DATABASE_URL', async () => {
    const dir = dbProject();
    const result = await runCli(['run', '.', '--port', '0', '--workers', '2'], { cwd: dir, env: EMBEDDED, timeoutMs: 60_000 });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      'trellis: --workers 2 needs a database server: the embedded database (data/db) is opened by one process at a time; set DATABASE_URL to a PostgreSQL server to run several workers\n',
    );
    assert.equal(result.stdout, '');
    assert.equal(existsSync(join(dir, 'data')), false);
    const reload = await runCli(['run', '.', '--port', '0', '--reload', '--workers', '3'], { cwd: dir, env: EMBEDDED, timeoutMs: 60_000 });
    assert.equal(reload.code, 1);
    assert.match(reload.stderr, /^trellis: --workers 3 needs a database server: .*set DATABASE_URL/);
  });

  it('--reload hands the folder to the new version on an edit (the old one stops first), and ignores the database writing its files', async () => {
    const dir = dbProject();
    const run = start(dir, '--reload');
    const url = await run.url(STARTED_WITHIN_MS);
    await post(url, 'before the edit');
    await post(url, 'also before');
    const router = join(dir, 'routers', 'notes.ts');
    const from = run.stdout.length;
    writeFileSync(router, readFileSync(router, 'utf8').replace(".orderBy('id')", ".orderBy('id', 'desc')"));
    await run.waitFor(/Reloading: routers\/notes\.ts changed\n[\s\S]*for a more detailed analysis\.\n/, STARTED_WITHIN_MS, from);
    assert.deepEqual(await notes(url), [
      { id: 2, text: 'also before' },
      { id: 1, text: 'before the edit' },
    ]);
    // Writes change data/db: none of them is taken for an edit.
    await post(url, 'after the edit');
    assert.equal(run.stdout.match(/Reloading:/g)?.length, 1, run.stdout);
    assert.equal(run.stderr, '');
    await stop(run);
  });
});

describe('trellis db migrate on the embedded database', () => {
  it('applies the pending migrations, one line each and a summary; then there is nothing to apply', async () => {
    const dir = dbProject();
    addMigration(dir);
    const first = await runCli(['db', 'migrate', 'app'], { cwd: join(dir, '..'), env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(first.stderr, '');
    assert.equal(first.code, 0);
    assert.equal(
      first.stdout,
      [
        'Migrating the database: embedded (PGlite) in app/data/db',
        '  Applied 0001_create_notes',
        '  Applied 0002_add_done',
        '2 migrations applied: the database is up to date.',
        '',
      ].join('\n'),
    );
    const second = await runCli(['db', 'migrate'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, 'Migrating the database: embedded (PGlite) in data/db\nNothing to apply: the database has every migration.\n');
  });

  it('names a migration that fails; none of the run is applied (one transaction)', async () => {
    const dir = dbProject();
    addMigration(dir); // 0002_add_done sorts before 0002_broken
    writeFileSync(join(dir, 'migrations', '0002_broken.ts'), "export async function up(): Promise<void> {\n  throw new Error('column missing');\n}\n");
    const result = await runCli(['db', 'migrate'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'trellis: Migration 0002_broken failed: column missing\n');
    assert.equal(result.stdout, 'Migrating the database: embedded (PGlite) in data/db\n');
    const doctor = await runCli(['doctor', '.', '--json'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    const pending = JSON.parse(doctor.stdout).warnings.filter((w: { code: string }) => w.code === 'pending-migration');
    assert.deepEqual(
      pending.map((w: { file: string }) => w.file),
      ['migrations/0001_create_notes.ts', 'migrations/0002_add_done.ts', 'migrations/0002_broken.ts'],
    );
  });

  it('refuses in one line: a project without a database: section, an unknown subcommand', async () => {
    const dir = dbProject();
    writeFileSync(join(dir, 'config.yaml'), 'app: { title: No database }\n');
    const none = await runCli(['db', 'migrate'], { cwd: dir, timeoutMs: 60_000 });
    assert.deepEqual([none.code, none.stderr], [1, 'trellis: config.yaml has no database: section: there is no database to migrate\n']);
    const unknown = await runCli(['db', 'rollback'], { cwd: dir, timeoutMs: 60_000 });
    assert.deepEqual([unknown.code, unknown.stderr], [1, 'trellis: Unknown db command "rollback": trellis db migrate [path]\n']);
    const bare = await runCli(['db'], { cwd: dir, timeoutMs: 60_000 });
    assert.deepEqual([bare.code, bare.stderr], [1, 'trellis: Say what to do: trellis db migrate [path]\n']);
  });
});

describe('trellis doctor on the embedded database', () => {
  it('lists each pending migration as a warning at its file, and checks the routers that take Kysely', async () => {
    const dir = dbProject();
    const result = await runCli(['doctor', '.'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /\n {2}NoteRouter {2}routers\/notes\.ts:\d+ {2}2 routes\n/);
    assert.match(
      result.stdout,
      /\n {2}warning migrations\/0001_create_notes\.ts:1: migration 0001_create_notes is not applied to the database yet: `trellis run` \(npm run dev\) applies it, `trellis db migrate` before a production start \[pending-migration\]\n/,
    );
    // Read-only: it created nothing in the database (the next migrate applies 0001).
    const migrate = await runCli(['db', 'migrate'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.match(migrate.stdout, /Applied 0001_create_notes/);
    const after = await runCli(['doctor', '.', '--json'], { cwd: dir, env: EMBEDDED, timeoutMs: STARTED_WITHIN_MS });
    assert.deepEqual(JSON.parse(after.stdout).warnings.filter((w: { code: string }) => w.code === 'pending-migration'), []);
  });
});
