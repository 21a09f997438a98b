import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, type Generated } from 'kysely';
import { BaseRouter, Get, HTTPException, Injectable, JSONResponse, Post, router } from '../index';
import { database } from '../database';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { MIGRATIONS } from './support/database';

interface Tables {
  tasks: { id: Generated<number>; title: string; done: Generated<boolean> };
}

/** A promise the test resolves from outside. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** What the handlers wait for and tell, so the test can put two requests at the same point. */
const steps = { inserted: gate(), listing: gate(), events: [] as string[] };

@Injectable()
class TaskRouter extends router('/tasks') {
  constructor(private readonly db: Kysely<Tables>) {
    super();
  }

  @Get('/', { shapeResponse: false }) async list(): Promise<JSONResponse> {
    steps.listing.open();
    const rows = await this.db.selectFrom('tasks').select('title').execute();
    steps.events.push('listed');
    return new JSONResponse(rows);
  }

  /** Inserts in a transaction, waits until a list request is about to query, runs one more statement, then fails. */
  @Post('/', { shapeResponse: false }) async create(): Promise<JSONResponse> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('tasks').values({ title: 'never committed' }).execute();
        steps.inserted.open();
        await steps.listing.promise;
        await trx.selectFrom('tasks').select('title').execute();
        throw new HTTPException(409, 'Refused');
      });
    } finally {
      steps.events.push('rolled back');
    }
    return new JSONResponse({});
  }
}

describe('the PGlite dialect', () => {
  let client: TestClient;
  before(async () => {
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: false })
      .register(database({ dataDir: 'memory://', migrations: MIGRATIONS, migrate: 'latest' }))
      .includeRouter(TaskRouter);
    client = new TestClient(app);
    await client.start();
  });
  after(() => client.close());

  it('hands its one connection to a transaction alone: a query of another request waits for the rollback and never sees its rows', async () => {
    const create = client.post('/tasks');
    await steps.inserted.promise;
    const list = client.get('/tasks');
    const [created, listed] = await Promise.all([create, list]);
    assert.equal(created.status, 409);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json(), []);
    assert.deepEqual(steps.events, ['rolled back', 'listed']);
  });

});
