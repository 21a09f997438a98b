import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { Kysely, type Generated } from 'kysely';
import { BaseRouter, Get, Injectable, JSONResponse, Post, router } from '../index';
import { Body } from '../param';
import { database } from '../database';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { MIGRATIONS, TARGETS, type TestTarget } from './support/database';

interface Tables {
  tasks: { id: Generated<number>; title: string; done: Generated<boolean> };
}

class NewTask {
  @IsString() title!: string;
}

@Injectable()
class TaskService {
  constructor(private readonly db: Kysely<Tables>) {}

  list() {
    return this.db.selectFrom('tasks').select(['id', 'title', 'done']).orderBy('id').execute();
  }

  create(title: string) {
    return this.db.insertInto('tasks').values({ title }).returning(['id', 'title', 'done']).executeTakeFirstOrThrow();
  }
}

@Injectable()
class TaskRouter extends router('/tasks') {
  constructor(private readonly tasks: TaskService) {
    super();
  }

  @Get('/', { shapeResponse: false }) async list(): Promise<JSONResponse> {
    return new JSONResponse(await this.tasks.list());
  }

  @Post('/', { shapeResponse: false }) async create(@Body() body: NewTask): Promise<JSONResponse> {
    return new JSONResponse(await this.tasks.create(body.title), { status: 201 });
  }
}

const app = (options: object) =>
  new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(database(options)).provide(TaskService).includeRouter(TaskRouter);

for (const [kind, make] of TARGETS) {
  describe(`database() on ${kind}`, () => {
    let target: TestTarget;
    before(async () => (target = await make()));
    after(() => target.remove());

    it('migrates at startup, gives services the Kysely instance, and keeps the rows across a restart', async () => {
      const first = new TestClient(app({ ...target.options, migrations: MIGRATIONS, migrate: 'latest' }));
      await first.start();
      assert.deepEqual((await first.get('/tasks')).json(), []);
      const created = await first.post('/tasks', { json: { title: 'Write docs' } });
      assert.equal(created.status, 201);
      assert.deepEqual(created.json(), { id: 1, title: 'Write docs', done: false });
      assert.equal(await first.close(), true);

      const second = new TestClient(app({ ...target.options, migrations: MIGRATIONS, migrate: 'check' }));
      await second.start();
      assert.deepEqual((await second.get('/tasks')).json(), [{ id: 1, title: 'Write docs', done: false }]);
      assert.equal(await second.close(), true);
    });
  });
}

describe('what each entry loads', () => {
  // Which of kysely, pg and PGlite a fresh process has loaded after `script`.
  const loaded = (script: string): string[] => {
    const probe = `${script}; const names = Object.keys(require.cache).map((file) => /node_modules\\/(kysely|pg|@electric-sql\\/pglite)\\//.exec(file)?.[1]).filter(Boolean); process.stdout.write(JSON.stringify([...new Set(names)].sort()))`;
    return JSON.parse(execFileSync(process.execPath, ['--require', './register.js', '-e', probe], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }));
  };

  it('trellis loads none of them; trellis/database loads kysely, and pg or PGlite only when a database of that kind opens', () => {
    assert.deepEqual(loaded("require('trellis'); require('trellis/plugins'); require('trellis/testing')"), []);
    assert.deepEqual(loaded("require('trellis/database').database({ url: 'postgres://localhost/x' })"), ['kysely']);
  });
});
