'use strict';
// The database harness (bench/database.js): the Fastify peer sends the --db sample's SQL and answers its bodies, on
// PostgreSQL and on PGlite; the run's databases are copies that start afresh and are all dropped; the tables.
// Needs the PostgreSQL server of the tests (TRELLIS_TEST_DATABASE_URL, default the local one): fails without it.
require('../../register.js'); // the sample's TypeScript service and migrations load as `trellis run` loads them
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, before, describe, it } = require('node:test');
const { FileMigrationProvider, Kysely, Migrator, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } = require('kysely');
const { Client } = require('pg');

process.env.TRELLIS_BENCH_DATABASE_URL ??= process.env.TRELLIS_TEST_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';
const { pinning } = require('../lib/cpu');
const { request } = require('../lib/http-get');
const { serverDatabases } = require('../lib/database/postgres');
const { installTable, startsTable, throughputTable } = require('../lib/database/report');
const { sampleDatabase } = require('../lib/database/samples');
const { startServer } = require('../lib/server');
const { addTask, getTask } = require('../apps/fastify-db/queries');

const ROOT = path.join(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'blueprints', 'project-db');
const pin = { ...pinning(), pinned: false };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-db-test-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A Kysely that runs nothing: it records each statement and answers the rows `answer` gives. */
function recordingKysely(answer) {
  /** @type {Array<[string, unknown[]]>} */
  const statements = [];
  const connection = {
    async executeQuery(/** @type {import('kysely').CompiledQuery} */ query) {
      statements.push([query.sql, [...query.parameters]]);
      return { rows: answer(query.sql) };
    },
    async *streamQuery() {},
  };
  const driver = {
    async init() {},
    async acquireConnection() {
      return connection;
    },
    async releaseConnection() {},
    async beginTransaction() {},
    async commitTransaction() {},
    async rollbackTransaction() {},
    async destroy() {},
  };
  const db = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (/** @type {Kysely<any>} */ k) => new PostgresIntrospector(k),
    },
  });
  return { db, statements };
}

/** Applies the --db sample's migrations (blueprints/project-db/migrations, TypeScript) to `db`. */
async function migrate(db) {
  const provider = new FileMigrationProvider({ fs: fs.promises, path, migrationFolder: path.join(SAMPLE, 'migrations') });
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
}

describe('the Fastify peer runs the --db sample\'s queries', () => {
  const { TaskService } = require(path.join(SAMPLE, 'services', 'task_service.ts'));
  const seed = { id: 1, title: 'Read the trellis README', description: null, completed: false };
  const created = { id: 3, title: 'x', description: 'y', completed: true };
  const answer = (sql) => (sql.startsWith('insert') ? [created] : sql.includes('"id" = $1') ? [seed] : []);

  for (const [name, run] of /** @type {Array<[string, (service: any, db: any) => Promise<unknown>[]]>} */ ([
    ['GET /tasks/{id}', (service, db) => [service ? service.get(1) : getTask(db, 1)]],
    ['POST /tasks with every field', (service, db) => [service ? service.add({ title: 'x', description: 'y', completed: true }) : addTask(db, { title: 'x', description: 'y', completed: true })]],
    ['POST /tasks with the title alone', (service, db) => [service ? service.add({ title: 'x' }) : addTask(db, { title: 'x' })]],
  ])) {
    it(`${name}: the same statements, parameters and task`, async () => {
      const sample = recordingKysely(answer);
      const peer = recordingKysely(answer);
      const fromSample = await Promise.all(run(new TaskService(sample.db), undefined));
      const fromPeer = await Promise.all(run(undefined, peer.db));
      assert.ok(sample.statements.length > 0);
      assert.deepEqual(peer.statements, sample.statements);
      assert.deepEqual(fromPeer, fromSample);
    });
  }
});

describe('the Fastify peer on a database', () => {
  const databases = serverDatabases();
  let template = '';
  before(async () => {
    template = await databases.create('template');
    const db = new Kysely({ dialect: new (require('kysely').PostgresDialect)({ pool: new (require('pg').Pool)({ connectionString: template, max: 1 }) }) });
    try {
      await migrate(db);
    } finally {
      await db.destroy();
    }
  });
  after(() => databases.dropAll());

  /** GET /tasks/1, POST /tasks and GET of the new task from the peer started with `env`. */
  async function exchange(env) {
    const server = await startServer({ id: 'fastify-db', command: () => [process.execPath, 'bench/apps/fastify-db/server.js'], env }, pin);
    try {
      const one = await request(server.port, { path: '/tasks/1' });
      const made = await request(server.port, { method: 'POST', path: '/tasks', body: { title: 'Benchmark', description: 'db' } });
      const read = await request(server.port, { path: '/tasks/3' });
      const invalid = await request(server.port, { method: 'POST', path: '/tasks', body: { title: '' } });
      return [one.status, one.json, made.status, made.json, read.json, invalid.status];
    } finally {
      await server.stop();
    }
  }

  const expected = [
    200,
    { id: 1, title: 'Read the trellis README', completed: false },
    201,
    { id: 3, title: 'Benchmark', description: 'db', completed: false },
    { id: 3, title: 'Benchmark', description: 'db', completed: false },
    400,
  ];

  it('PostgreSQL: a copy of the migrated template answers the seed task and creates task 3; a new copy starts afresh', async () => {
    assert.deepEqual(await exchange({ DATABASE_URL: await databases.copy('template', 'peer') }), expected);
    assert.deepEqual(await exchange({ DATABASE_URL: await databases.copy('template', 'peer') }), expected);
  });

  it('PGlite: a migrated data folder answers the same', async () => {
    const { PGlite } = require('@electric-sql/pglite');
    const PGliteDialect = require('../apps/fastify-db/pglite-dialect').definePGliteDialect(require('kysely'));
    const dir = path.join(work, 'pglite');
    const db = new Kysely({ dialect: new PGliteDialect(new PGlite(dir)) });
    try {
      await migrate(db);
    } finally {
      await db.destroy();
    }
    // DRIVERS_FROM as the harness sets it (a project folder; this one's drivers are the repository's, found upwards).
    assert.deepEqual(await exchange({ DATABASE_URL: '', PGLITE_DIR: dir, DRIVERS_FROM: SAMPLE }), expected);
  });

  it('dropAll removes every database the run made', async () => {
    const made = serverDatabases();
    await made.create('a');
    await made.copy('a', 'b');
    await made.dropAll();
    const client = new Client({ connectionString: process.env.TRELLIS_BENCH_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('select datname from pg_database where datname like $1', [`${made.prefix}%`]);
      assert.deepEqual(rows, []);
    } finally {
      await client.end();
    }
  });
});

describe('the report and the sample\'s pool', () => {
  it('gives trellis / Fastify per endpoint and database against >= 1.0, and the start the database adds against 300 ms', () => {
    const cell = (rps, cpuUs, p99) => [{ rps, cpuUs, p99 }];
    const cells = { 'get-task': { a: cell(1000, 50, 2), b: cell(800, 60, 3) } };
    const table = throughputTable(cells, [['a', 'b']], [{ id: 'get-task', label: 'GET /tasks/1' }], [{ id: 'a', backend: 'pglite' }]);
    assert.equal(table.split('\n')[2], '| GET /tasks/1 | PGlite | 1000 | 800 | 1.25 | 1.20 | met | 2.00, 3.00 | 50.0, 60.0 |');
    const starts = startsTable(
      { m: { median: 400, min: 390, max: 420, n: 2 }, d: { median: 750, min: 700, max: 800, n: 2 } },
      [{ id: 'm', label: 'in memory' }, { id: 'd', label: 'db' }],
      [['npm run dev', 'd', 'm']],
    );
    assert.match(starts, /^\| db \| 750 \| 700 \| 800 \| 2 \|$/m);
    assert.match(starts, /^\| npm run dev \| 350 \| missed \|$/m);
    const install = installTable({ memory: { bytes: 20e6, packages: 100 }, db: { bytes: 55e6, packages: 116 } });
    assert.match(install, /^\| added by --db \| 35\.0 \| 16 \|$/m);
  });

  it('reads the pool and the data folder from config.yaml\'s database section, 10 and data/db when it gives none', () => {
    const dir = path.join(work, 'config');
    fs.mkdirSync(dir, { recursive: true });
    const write = (text) => fs.writeFileSync(path.join(dir, 'config.yaml'), text);
    write('server:\n  pool: 3\ndatabase:   # the SQL database\n  url: ${DATABASE_URL:-}\n\n  pool: 7   # per process\n  data_dir: var/pg\nadmin:\n  data_dir: no\n');
    assert.deepEqual(sampleDatabase(dir), { pool: 7, dataDir: path.join(dir, 'var', 'pg') });
    write('server:\n  pool: 3\ndatabase:\n  url: x\nadmin:\n  pool: 4\n  data_dir: no\n');
    assert.deepEqual(sampleDatabase(dir), { pool: 10, dataDir: path.join(dir, 'data', 'db') });
  });
});
