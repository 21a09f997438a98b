import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bannerLines } from '../banner';
import { readConfig } from '../config';
import { Kysely } from 'kysely';
import { BaseRouter, Get, Injectable, router } from '../../framework/index';
import { databaseLabel, databaseOptions, registerDatabase } from '../database';
import type { Discovery } from '../discover';
import type { Environment } from '../env-references';
import type { Project } from '../project';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const SECTION = 'database:\n  url: ${DATABASE_URL:-}\n  pool: 4\n';
const SERVER = 'postgres://app:s3cret@db.internal:5433/tasks';

/** A project named `demo` whose config.yaml is `text`, read with `env`. */
function project(text: string, env: Environment = {}, built = false): Project {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-database-options-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.yaml'), text);
  return { dir, display: 'demo', config: readConfig(dir, env), built };
}

class TaskService {}
const discovery = { routers: [], models: [], services: [{ cls: TaskService, file: 'services/task_service.ts' }], middleware: [], plugins: [], failures: [] } as unknown as Discovery;

@Injectable()
class NoteRouter extends router('/notes') {
  constructor(private readonly db: Kysely<any>) {
    super();
  }

  @Get()
  list() {
    return this.db.selectFrom('notes').selectAll().execute();
  }
}

describe('a project database', () => {
  it("is registered on the app when the section is there (Kysely provided to routers), without opening it", () => {
    const app = new BaseRouter();
    assert.deepEqual(registerDatabase(app, project(SECTION)), []);
    app.includeRouter(NoteRouter);
    assert.ok(app.handler);
    const without = new BaseRouter();
    assert.deepEqual(registerDatabase(without, project('app: { title: Demo }\n')), []);
    assert.throws(() => without.includeRouter(NoteRouter), /NoteRouter needs Kysely/);
  });


  it('has none without the section', () => {
    const plain = project('app: { title: Demo }\n');
    assert.equal(databaseOptions(plain, 'latest'), undefined);
    assert.equal(databaseLabel(plain), undefined);
    assert.equal(bannerLines(plain, discovery, 'http://localhost:8000').some((line) => line.includes('Database')), false);
  });

  it('runs the embedded one in the project folder, its migrations/ beside it', () => {
    const embedded = project(SECTION);
    assert.deepEqual(databaseOptions(embedded, 'latest'), {
      url: '',
      pool: 4,
      dataDir: join(embedded.dir, 'data', 'db'),
      migrations: join(embedded.dir, 'migrations'),
      migrate: 'latest',
    });
    assert.equal(databaseLabel(embedded), 'embedded (PGlite) in demo/data/db');
  });

  it("takes a build's embedded folder from where it is started (trellis build clears dist/), its migrations from the build", () => {
    const built = project(`${SECTION}  data_dir: var/db\n`, {}, true);
    const options = databaseOptions(built, 'check');
    assert.equal(options?.dataDir, join(process.cwd(), 'var', 'db'));
    assert.equal(options?.migrations, join(built.dir, 'migrations'));
    assert.equal(options?.migrate, 'check');
    assert.equal(databaseLabel(built), 'embedded (PGlite) in var/db');
  });

  it('names a server by host, port and database, never its user or password', () => {
    const server = project(SECTION, { DATABASE_URL: SERVER });
    assert.equal(databaseOptions(server, 'check')?.url, SERVER);
    assert.equal(databaseLabel(server), 'PostgreSQL at db.internal:5433/tasks, 4 connections per process');
    assert.equal(databaseLabel(project(SECTION, { DATABASE_URL: 'postgres://db' })), 'PostgreSQL at db:5432, 4 connections per process');
  });

  it('shows the database in the banner; with workers on a server, that they share it rather than each keeping its own state', () => {
    const server = project(SECTION, { DATABASE_URL: SERVER });
    const lines = bannerLines(server, discovery, 'http://localhost:8000', 4);
    assert.ok(lines.includes('  Database:    PostgreSQL at db.internal:5433/tasks, 4 connections per process'), lines.join('\n'));
    assert.ok(lines.includes("  Workers:     4, sharing the database: state kept there is shared (a service's own memory is not)"), lines.join('\n'));
    assert.equal(lines.join('\n').includes('s3cret'), false);
    const inMemory = bannerLines(project('app: { title: Demo }\n'), discovery, 'http://localhost:8000', 2);
    assert.ok(inMemory.includes('  Workers:     2, each with its own services (TaskService): state kept in memory is not shared'), inMemory.join('\n'));
  });
});
