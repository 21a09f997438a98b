import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, HTTPException, JSONResponse, Middleware, RateLimit, router, Use, type Request } from '../index';
import { apiKeyAuth } from '../auth';
import type { Controller } from '../router';
import { memoryStore, rateLimit, type RateLimitStore } from '../plugins';
import { TestClient, type TestResponse } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';

// A keyed limit runs after the guards; what they refuse is counted by client address before them (issue 40, item 10).

const KEYS = new Map([['key-ada', { sub: 'ada' }], ['key-bob', { sub: 'bob' }]]);

/** The router of the issue: an API key guard and a limit of 3 per user, with how often the guard looked a key up. */
function reports() {
  const lookups = { count: 0 };
  @Use(apiKeyAuth({ lookup: (key: string) => (lookups.count++, KEYS.get(key)) }))
  @RateLimit({ limit: 3, key: (request: Request) => request.user?.sub })
  class Reports extends router('/reports') {
    @Get('/') list() { return []; }
    @Get('/{id}') one() { throw new HTTPException(404, 'No such report'); }
  }
  return { Reports, lookups };
}

// Every request of a TestClient comes from 127.0.0.1; behind it as a trusted proxy, X-Forwarded-For names the client.
const as = (key: string | undefined, address = '198.51.100.1') => ({ headers: { 'x-forwarded-for': address, ...(key === undefined ? {} : { 'x-api-key': key }) } });

async function statuses(client: TestClient, count: number, key: string | undefined, address?: string, path = '/reports'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await client.get(path, as(key, address))).status);
  return out;
}

function client(store: RateLimitStore = memoryStore(), Routers: Array<new () => Controller> = [reports().Reports]) {
  const app = new BaseRouter({ logger: silentLogger() });
  for (const Router of Routers) app.includeRouter(Router);
  return new TestClient(app.register(rateLimit({ limit: 100, trustProxy: 1, store })));
}

const rateHeaders = (response: TestResponse) => [response.headers['ratelimit-policy'], response.headers.ratelimit];

describe('@RateLimit({ key }) behind a guard: refusals count by address', () => {
  it('wrong keys get 401, 401, 401, then 429 before the guard runs again', async () => {
    const { Reports, lookups } = reports();
    const app = client(memoryStore(), [Reports]);
    const refused = [];
    for (let i = 0; i < 4; i++) refused.push(await app.get('/reports', as('wrong')));
    assert.deepEqual(refused.map((response) => response.status), [401, 401, 401, 429]);
    assert.deepEqual(refused.slice(0, 3).map(rateHeaders), [1, 2, 3].map((n) => ['"Reports";q=3;w=60', `"Reports";r=${3 - n};t=60`]));
    const locked = refused[3];
    assert.deepEqual(locked.json(), { error: 'Too Many Requests' });
    assert.equal(locked.headers['retry-after'], '60');
    assert.deepEqual(rateHeaders(locked), ['"Reports";q=3;w=60', '"Reports";r=0;t=60']);
    assert.equal(lookups.count, 3);
    // Missing keys are refusals too; the address stays locked out for its window, the guard not run.
    assert.deepEqual(await statuses(app, 26, undefined), new Array(26).fill(429));
    assert.equal(lookups.count, 3);
    await app.close();
  });

  it('right keys of different users keep being counted per user, whatever another address tries', async () => {
    const app = client();
    assert.deepEqual(await statuses(app, 10, 'wrong', '203.0.113.66'), [401, 401, 401, ...new Array(7).fill(429)]);
    // That address is refused before the guard, right key or not: such an answer counts for nobody.
    assert.deepEqual(await statuses(app, 1, 'key-bob', '203.0.113.66'), [429]);
    assert.deepEqual(await statuses(app, 4, 'key-ada'), [200, 200, 200, 429]);
    const bob = await app.get('/reports', as('key-bob'));
    assert.deepEqual([bob.status, ...rateHeaders(bob)], [200, '"Reports";q=3;w=60', '"Reports";r=2;t=60']);
    assert.deepEqual(await statuses(app, 2, 'key-bob'), [200, 200]);
    // Bob's count is his own, from any address.
    assert.deepEqual(await statuses(app, 1, 'key-bob', '198.51.100.2'), [429]);
    await app.close();
  });

  it('a lockout ends with its window (a memory store\'s clock, moved): the guard runs again', async () => {
    let now = 1_000_000;
    const app = client(memoryStore({ now: () => now }));
    assert.deepEqual(await statuses(app, 4, 'wrong'), [401, 401, 401, 429]);
    now += 59_000;
    const locked = await app.get('/reports', as('key-ada'));
    assert.deepEqual([locked.status, locked.headers['retry-after']], [429, '1']);
    now += 1_000;
    assert.deepEqual(await statuses(app, 2, 'key-ada'), [200, 200]);
    assert.deepEqual(await statuses(app, 4, 'wrong'), [401, 401, 401, 429]);
    await app.close();
  });

  it('fewer refusals than the limit lock nothing out; a right key after them is counted for its user', async () => {
    const app = client();
    assert.deepEqual(await statuses(app, 2, 'wrong'), [401, 401]);
    assert.deepEqual(await statuses(app, 3, 'key-ada'), [200, 200, 200]);
    assert.deepEqual(await statuses(app, 2, 'wrong'), [401, 429]);
    await app.close();
  });

  it('what the handler answers after the guard (a 404) counts for the user, never for the address', async () => {
    const app = client();
    assert.deepEqual(await statuses(app, 4, 'key-ada', undefined, '/reports/7'), [404, 404, 404, 429]);
    assert.deepEqual(await statuses(app, 2, 'key-bob', undefined, '/reports/7'), [404, 404]);
    await app.close();
  });

  it('a guard failing on its own side (5xx) is not the client\'s refusal: not counted', async () => {
    class Unavailable extends Middleware {
      dispatch() { return new JSONResponse({ error: 'Service Unavailable' }, { status: 503 }); }
    }
    @Use(Unavailable)
    @RateLimit({ limit: 2, key: (request: Request) => request.user?.sub })
    class Down extends router('/down') {
      @Get('/') one() { return {}; }
    }
    const app = client(memoryStore(), [Down]);
    assert.deepEqual(await statuses(app, 4, 'wrong', undefined, '/down'), [503, 503, 503, 503]);
    await app.close();
  });

  it('with a store shared by several processes, another process answers 429 at its next refusal and locks out in turn', async () => {
    const store = memoryStore();
    const { Reports, lookups } = reports();
    const first = client(store, [Reports]);
    const second = client(store, [Reports]);
    assert.deepEqual(await statuses(first, 3, 'wrong'), [401, 401, 401]);
    assert.deepEqual(await statuses(second, 1, 'wrong'), [429]);
    assert.deepEqual(await statuses(second, 2, 'key-ada'), [429, 429]);
    assert.equal(lookups.count, 4);
    await first.close();
    await second.close();
  });

  it('a store that cannot count a refusal leaves it as it is (open or closed), logged once', async () => {
    for (const onStoreError of ['open', 'closed'] as const) {
      const { logger, lines } = capturedLog('warn');
      const store: RateLimitStore = { hit: () => Promise.reject(new Error('down')) };
      const app = new TestClient(new BaseRouter({ logger }).includeRouter(reports().Reports).register(rateLimit({ store, onStoreError, trustProxy: 1 })));
      const refused = await app.get('/reports', as('wrong'));
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.ratelimit, undefined);
      assert.deepEqual(await statuses(app, 3, 'wrong'), [401, 401, 401]);
      assert.equal(lines.filter((line) => /rate limit store unavailable/.test(line.msg ?? '')).length, 1);
      await app.close();
    }
  });
});
