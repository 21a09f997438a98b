import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addMigration, createDatabase, dbProject, removeProjects } from './db-support';
import { freePort, http, ROOT, runCli, Running } from './run-support';
import { linkDependencies, stageTrellis } from './staged-trellis';

// A start compiles the project (trellis run) and opens the database: 10-30 s on a busy 2-core machine.
const STARTED_WITHIN_MS = 180_000;
const BUILT_BANNER_END = /  Database: .+\n/;
const MAIN = [join('dist', 'main.js')];

let work: string;
let app: string;
let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
const running: Running[] = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'trellis-db-build-test-'));
  await stageTrellis(join(work, 'trellis'));
  app = dbProject(false);
  linkDependencies(app, join(work, 'trellis'));
  mkdirSync(join(app, 'node_modules', '@electric-sql'));
  for (const name of ['kysely', 'pg', '@electric-sql/pglite']) symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name));
});

after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  await database?.drop();
  removeProjects();
  rmSync(work, { recursive: true, force: true });
});

/** `node dist/main.js` (`command`) or `trellis run .` in the project, with `env` (PORT=0). */
function start(env: NodeJS.ProcessEnv, command?: string[], args: string[] = []): Running {
  const run = new Running(args, app, { PORT: '0', TRELLIS_SHUTDOWN_GRACE_MS: '2000', ...env }, command);
  running.push(run);
  return run;
}

async function stop(run: Running): Promise<void> {
  run.kill('SIGTERM');
  assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr);
}

/** Runs a built app that must refuse to start: its exit code and stderr. */
async function refused(env: NodeJS.ProcessEnv): Promise<[number | null, string]> {
  const run = start(env, MAIN);
  const { code } = await run.exited;
  return [code, run.stderr];
}

const json = { 'content-type': 'application/json' };
const post = (url: string, text: string) => http(`${url}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ text }) });
const texts = async (url: string) => (JSON.parse((await http(`${url}/notes`)).text) as Array<{ text: string }>).map((note) => note.text);

describe('a built app with a database', () => {
  it('carries its migrations compiled, refuses to start behind them naming the missing one, and starts once trellis db migrate applied it (embedded)', async () => {
    const embedded = { DATABASE_URL: '' };
    const first = await runCli(['db', 'migrate', '.'], { cwd: app, env: embedded, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(first.code, 0, first.stderr);
    addMigration(app);
    const build = await runCli(['build', '.'], { cwd: app, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(build.code, 0, build.stderr);
    assert.deepEqual(readdirSync(join(app, 'dist', 'migrations')).sort(), ['0001_create_notes.js', '0002_add_done.js']);

    assert.deepEqual(await refused(embedded), [
      1,
      'trellis: The database lacks migration 0002_add_done (1 pending): apply them before starting, with `trellis db migrate` (npm run db:migrate) or, in a production install, `node dist/main.js --migrate`\n',
    ]);
    // The refused start let go of the folder: migrate opens it.
    assert.equal(existsSync(join(app, 'data', 'db.lock')), false);
    const migrate = await runCli(['db', 'migrate', '.'], { cwd: app, env: embedded, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(migrate.stdout, 'Migrating the database: embedded (PGlite) in data/db\n  Applied 0002_add_done\n1 migration applied: the database is up to date.\n');

    const built = start(embedded, MAIN);
    const url = await built.url(STARTED_WITHIN_MS, BUILT_BANNER_END);
    assert.match(built.stdout, /\n {2}Database: {4}embedded \(PGlite\) in data\/db\n/);
    assert.equal((await post(url, 'from the build')).status, 201);
    assert.deepEqual(await texts(url), ['from the build']);
    assert.equal((await http(`${url}/readyz`)).status, 200);
    await stop(built);
  });

  it('on PostgreSQL: the same refusal; node dist/main.js --migrate applies them; then trellis run --workers 2 and the built app share one state', async () => {
    database = await createDatabase();
    const server = { DATABASE_URL: database.url };
    const name = new URL(database.url).pathname.slice(1);
    assert.deepEqual(await refused(server), [
      1,
      'trellis: The database lacks migration 0001_create_notes (2 pending): apply them before starting, with `trellis db migrate` (npm run db:migrate) or, in a production install, `node dist/main.js --migrate`\n',
    ]);
    // The deploy step where only the production dependencies are installed: the build applies its own migrations.
    const migrate = start(server, [...MAIN, '--migrate']);
    assert.deepEqual(await migrate.exited, { code: 0, signal: null }, migrate.stderr);
    assert.match(migrate.stdout, new RegExp(`^Migrating the database: PostgreSQL at [^ ]+:\\d+/${name}, 4 connections per process\\n  Applied 0001_create_notes\\n  Applied 0002_add_done\\n2 migrations applied: the database is up to date\\.\\n$`));

    const built = start(server, MAIN);
    const dev = start(server, undefined, ['.', '--workers', '2', '--no-access-log']);
    const [builtUrl, devUrl] = await Promise.all([built.url(STARTED_WITHIN_MS, BUILT_BANNER_END), dev.url(STARTED_WITHIN_MS)]);
    assert.match(dev.stdout, new RegExp(`\\n {2}Database: {4}PostgreSQL at [^ ]+:\\d+/${name}, 4 connections per process\\n`));
    assert.match(dev.stdout, /\n {2}Workers: {5}2, sharing the database: state kept there is shared \(a service's own memory is not\)\n/);
    assert.equal((await post(builtUrl, 'written by the build')).status, 201);
    assert.equal((await post(devUrl, 'written by trellis run')).status, 201);
    for (const url of [builtUrl, devUrl, devUrl]) assert.deepEqual(await texts(url), ['written by the build', 'written by trellis run']);
    await Promise.all([stop(built), stop(dev)]);
  });

  it('stops in one line when the server cannot be reached, never printing its password', async () => {
    const unreachable = { DATABASE_URL: `postgres://trellis:pw-not-shown@127.0.0.1:${await freePort()}/notes` };
    const [code, stderr] = await refused(unreachable);
    assert.equal(code, 1);
    assert.match(stderr, /^trellis: Cannot reach the database at 127\.0\.0\.1:\d+\/notes: connect ECONNREFUSED [^\n]+\n$/);
    const migrate = await runCli(['db', 'migrate'], { cwd: app, env: unreachable, timeoutMs: STARTED_WITHIN_MS });
    assert.equal(migrate.code, 1);
    assert.match(migrate.stderr, /^trellis: Cannot reach the database at 127\.0\.0\.1:\d+\/notes: connect ECONNREFUSED [^\n]+\n$/);
    const built = start(unreachable, [...MAIN, '--migrate']);
    assert.equal((await built.exited).code, 1);
    assert.match(built.stderr, /^trellis: Cannot reach the database at 127\.0\.0\.1:\d+\/notes: connect ECONNREFUSED [^\n]+\n$/);
    assert.doesNotMatch(stderr + migrate.stdout + migrate.stderr + built.stdout + built.stderr, /pw-not-shown/);
  });
});
