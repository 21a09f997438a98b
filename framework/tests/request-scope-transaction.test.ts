import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { Kysely, type ControlledTransaction, type Generated } from 'kysely';
import { BaseRouter, closeGracefully, Get, HTTPException, JSONResponse, Post, router, type Request, type RequestOutcome } from '../index';
import { Body, Depends, Req } from '../param';
import { testDatabase } from '../database';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { startServer } from './fixtures/listening';
import { MIGRATIONS } from './support/database';

interface Tables {
  tasks: { id: Generated<number>; title: string; done: Generated<boolean> };
}

/** What the teardowns did, in order: `commit`, `rollback (aborted)`. */
const ends: string[] = [];
/** Resolves the next teardown's waiter. */
let ended: (() => void) | undefined;

/** One transaction per request: committed when the request ends well, rolled back otherwise. */
class UnitOfWork {
  constructor(readonly trx: ControlledTransaction<Tables>) {}

  async onRequestEnd(outcome: RequestOutcome): Promise<void> {
    if (outcome.ok) await this.trx.commit().execute();
    else await this.trx.rollback().execute();
    ends.push(outcome.ok ? 'commit' : `rollback${outcome.aborted ? ' (aborted)' : ''}`);
    ended?.();
  }
}

class TaskIn {
  @IsString() title!: string;
}

/** Set by the aborted request's handler once it inserted; the test then cuts the socket and calls `release`. */
const hold: { inserted?: () => void; closed?: Promise<void>; release?: Promise<void> } = {};

class TaskRouter extends router('/tasks') {
  @Get('/', { shapeResponse: false }) async list(@Depends() uow: UnitOfWork): Promise<JSONResponse> {
    return new JSONResponse(await uow.trx.selectFrom('tasks').select('title').orderBy('id').execute());
  }

  @Post('/', { shapeResponse: false }) async create(@Body() body: TaskIn, @Depends() uow: UnitOfWork, @Req() request: Request): Promise<JSONResponse> {
    const row = await uow.trx.insertInto('tasks').values({ title: body.title }).returning('title').executeTakeFirstOrThrow();
    if (body.title.startsWith('refused')) throw new HTTPException(409, 'Refused after the insert');
    if (body.title.startsWith('slow')) {
      hold.closed = new Promise((resolve) => request.raw.socket.once('close', () => resolve()));
      hold.inserted?.();
      await hold.release;
    }
    return new JSONResponse(row, { status: 201 });
  }
}

const appOf = () =>
  new BaseRouter({ logger: silentLogger(), sourceTypes: false, docs: false })
    .register(testDatabase({ migrations: MIGRATIONS }))
    .provide({ provide: UnitOfWork, scope: 'request', inject: [Kysely], useFactory: async (db: Kysely<Tables>) => new UnitOfWork(await db.startTransaction().execute()) })
    .includeRouter(TaskRouter);

/** The next teardown, awaited. */
const nextEnd = () => new Promise<void>((resolve) => (ended = resolve));

describe('a per-request Kysely transaction (request-scoped, torn down by outcome)', () => {
  let client: TestClient;
  before(async () => {
    client = new TestClient(appOf());
    await client.start();
  });
  after(() => client.close());

  it('commits on a 201 and rolls back on a thrown HTTPException: the rows say so', async () => {
    ends.length = 0;
    assert.equal((await client.post('/tasks', { json: { title: 'kept' } })).status, 201);
    const refused = await client.post('/tasks', { json: { title: 'refused one' } });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.json(), { error: 'Refused after the insert' });
    assert.deepEqual((await client.get('/tasks')).json(), [{ title: 'kept' }]);
    assert.deepEqual(ends, ['commit', 'rollback', 'commit']);
  });

  it('a 422 opens no transaction at all', async () => {
    ends.length = 0;
    assert.equal((await client.post('/tasks', { json: { title: 7 } })).status, 422);
    assert.deepEqual(ends, []);
  });
});

describe('a client that disconnects while the handler awaits (a real server)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    server = await startServer(appOf());
  });
  after(() => closeGracefully(server.server));   // stops the app too: its test database closes

  it('rolls back once the handler finishes, with aborted: true', async () => {
    ends.length = 0;
    let release!: () => void;
    hold.release = new Promise((resolve) => (release = resolve));
    const inserted = new Promise<void>((resolve) => (hold.inserted = resolve));
    const body = JSON.stringify({ title: 'slow and cut' });
    const req = httpRequest({ port: server.port, host: '127.0.0.1', method: 'POST', path: '/tasks', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('error', () => {});
    req.end(body);
    await inserted;
    req.destroy();
    await hold.closed;
    const teardown = nextEnd();
    release();
    await teardown;
    assert.deepEqual(ends, ['rollback (aborted)']);

    const rows = await fetch(`http://127.0.0.1:${server.port}/tasks`).then((res) => res.json());
    assert.deepEqual(rows, []);
  });
});
