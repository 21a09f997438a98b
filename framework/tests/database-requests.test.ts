import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { Kysely, type Generated } from 'kysely';
import { BaseRouter, Get, HTTPException, Injectable, JSONResponse, Post, router } from '../index';
import { Body } from '../param';
import { database } from '../database';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';
import { MIGRATIONS, TARGETS, type TestTarget } from './support/database';

interface Tables {
  tasks: { id: Generated<number>; title: string; done: Generated<boolean> };
}

class NewTasks {
  @IsString({ each: true }) titles!: string[];
  /** Where the handler fails after inserting: 'conflict' (an HTTPException 409), 'crash' (an Error), or nowhere. */
  @IsString() fail!: string;
}

@Injectable()
class TaskRouter extends router('/tasks') {
  constructor(private readonly db: Kysely<Tables>) {
    super();
  }

  @Get('/', { shapeResponse: false }) async list(): Promise<JSONResponse> {
    return new JSONResponse(await this.db.selectFrom('tasks').select(['title']).orderBy('id').execute());
  }

  @Post('/one', { shapeResponse: false }) async one(@Body() body: NewTasks): Promise<JSONResponse> {
    return new JSONResponse(await this.db.insertInto('tasks').values({ title: body.titles[0] }).returning(['id', 'title']).executeTakeFirstOrThrow(), { status: 201 });
  }

  /** Inserts every title in one transaction, then fails as `fail` says. */
  @Post('/batch', { shapeResponse: false }) async batch(@Body() body: NewTasks): Promise<JSONResponse> {
    const count = await this.db.transaction().execute(async (trx) => {
      for (const title of body.titles) await trx.insertInto('tasks').values({ title }).execute();
      if (body.fail === 'conflict') throw new HTTPException(409, 'Batch refused');
      if (body.fail === 'crash') throw new Error('batch crashed');
      return body.titles.length;
    });
    return new JSONResponse({ inserted: count }, { status: 201 });
  }
}

for (const [kind, make] of TARGETS) {
  describe(`requests on ${kind}`, () => {
    let target: TestTarget;
    let client: TestClient;
    const log = capturedLog('error');
    before(async () => {
      target = await make();
      const app = new BaseRouter({ logger: log.logger, sourceTypes: false })
        .register(database({ ...target.options, migrations: MIGRATIONS, migrate: 'latest' }))
        .includeRouter(TaskRouter);
      client = new TestClient(app);
      await client.start();
    });
    after(async () => {
      await client.close();
      await target.remove();
    });

    it('answers a query error (a unique key violated) with the generic 500, its SQL and values only in the log', async () => {
      assert.equal((await client.post('/tasks/one', { json: { titles: ['Secret plan'], fail: '' } })).status, 201);
      log.lines.length = 0;
      const res = await client.post('/tasks/one', { json: { titles: ['Secret plan'], fail: '' } });
      assert.equal(res.status, 500);
      assert.deepEqual(res.json(), { error: 'Internal Server Error' });
      assert.doesNotMatch(res.text, /Secret|insert|tasks|unique|duplicate/i);
      assert.equal(log.lines.length, 1);
      assert.equal(log.lines[0].msg, 'POST /tasks/one failed');
      assert.match(log.lines[0].err!.message, /duplicate key value violates unique constraint "tasks_title_key"/);
    });

    it('commits a transaction when its callback returns', async () => {
      const res = await client.post('/tasks/batch', { json: { titles: ['a', 'b'], fail: '' } });
      assert.equal(res.status, 201);
      assert.deepEqual(res.json(), { inserted: 2 });
      assert.deepEqual((await client.get('/tasks')).json(), [{ title: 'Secret plan' }, { title: 'a' }, { title: 'b' }]);
    });

    it('rolls it back on a thrown HTTPException, whose status the client gets', async () => {
      const res = await client.post('/tasks/batch', { json: { titles: ['c', 'd'], fail: 'conflict' } });
      assert.equal(res.status, 409);
      assert.equal(res.json().error, 'Batch refused');
      assert.deepEqual((await client.get('/tasks')).json(), [{ title: 'Secret plan' }, { title: 'a' }, { title: 'b' }]);
    });

    it('rolls it back on any other error (a 500), and on a query error inside it', async () => {
      assert.equal((await client.post('/tasks/batch', { json: { titles: ['e'], fail: 'crash' } })).status, 500);
      assert.equal((await client.post('/tasks/batch', { json: { titles: ['f', 'a'], fail: '' } })).status, 500);
      assert.deepEqual((await client.get('/tasks')).json(), [{ title: 'Secret plan' }, { title: 'a' }, { title: 'b' }]);
      const res = await client.post('/tasks/batch', { json: { titles: ['g'], fail: '' } });
      assert.equal(res.status, 201);
    });
  });
}
