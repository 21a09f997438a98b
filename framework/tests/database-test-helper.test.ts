import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { Kysely, sql, type Generated } from 'kysely';
import { BaseRouter, Get, Injectable, JSONResponse, Post, router } from '../index';
import { Body } from '../param';
import { testDatabase } from '../database';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { MIGRATIONS } from './support/database';

interface Tables {
  tasks: { id: Generated<number>; title: string; done: Generated<boolean> };
}

class NewTask {
  @IsString() title!: string;
}

@Injectable()
class TaskRouter extends router('/tasks') {
  constructor(private readonly db: Kysely<Tables>) {
    super();
  }

  @Get('/', { shapeResponse: false }) async list(): Promise<JSONResponse> {
    return new JSONResponse(await this.db.selectFrom('tasks').select(['id', 'title', 'done']).orderBy('id').execute());
  }

  @Post('/', { shapeResponse: false }) async create(@Body() body: NewTask): Promise<JSONResponse> {
    const row = await this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('tasks').values({ title: body.title }).returning('id').executeTakeFirstOrThrow();
      return trx.selectFrom('tasks').select(['id', 'title']).where('id', '=', id).executeTakeFirstOrThrow();
    });
    return new JSONResponse(row, { status: 201 });
  }

  /** The schemas named t_<n> that exist now. */
  @Get('/schemas', { shapeResponse: false }) async schemas(): Promise<JSONResponse> {
    const { rows } = await sql<{ name: string }>`select schema_name as name from information_schema.schemata where schema_name ~ '^t_[0-9]+$' order by 1`.execute(this.db);
    return new JSONResponse(rows.map((row) => row.name));
  }
}

const app = () =>
  new BaseRouter({ logger: silentLogger(), sourceTypes: false }).register(testDatabase({ migrations: MIGRATIONS })).includeRouter(TaskRouter);

describe('testDatabase()', () => {
  it('gives each app a fresh, migrated database of its own, even while both serve at once, and drops it at shutdown', async () => {
    const first = new TestClient(app());
    const second = new TestClient(app());
    await Promise.all([first.start(), second.start()]);
    assert.deepEqual((await first.get('/tasks')).json(), []);
    assert.deepEqual((await second.get('/tasks')).json(), []);

    // Interleaved transactions of both apps on the one shared connection: each lands in its own schema.
    const titles = Array.from({ length: 10 }, (_, index) => `task ${index}`);
    const created = await Promise.all(titles.flatMap((title) => [first.post('/tasks', { json: { title: `first ${title}` } }), second.post('/tasks', { json: { title: `second ${title}` } })]));
    assert.deepEqual(created.map((res) => res.status), created.map(() => 201));
    const own = (prefix: string, rows: Array<{ title: string; done: boolean }>) => {
      assert.equal(rows.length, 10);
      for (const row of rows) {
        assert.ok(row.title.startsWith(prefix), row.title);
        assert.equal(row.done, false);
      }
    };
    own('first ', (await first.get('/tasks')).json());
    own('second ', (await second.get('/tasks')).json());

    const schemas: string[] = (await first.get('/tasks/schemas')).json();
    assert.equal(schemas.length, 2);
    assert.equal(await second.close(), true);
    assert.deepEqual((await first.get('/tasks/schemas')).json(), schemas.slice(0, 1));
    assert.equal(await first.close(), true);

    const third = new TestClient(app());
    await third.start();
    assert.deepEqual((await third.get('/tasks')).json(), []);
    assert.equal((await third.get('/tasks/schemas')).json().length, 1);
    assert.equal(await third.close(), true);
  });

  it('answers /readyz with the database check', async () => {
    const client = new TestClient(
      new BaseRouter({ logger: silentLogger(), sourceTypes: false, health: true }).register(testDatabase({ migrations: MIGRATIONS })).includeRouter(TaskRouter),
    );
    await client.start();
    const res = await client.get('/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json().checks, { database: 'up' });
    assert.equal(await client.close(), true);
  });
});
