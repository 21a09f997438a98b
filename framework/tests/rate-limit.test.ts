import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Config, Get, Middleware, Post, RateLimit, router, Use, type CallNext, type Request } from '../index';
import { memoryStore, rateLimit, type RateLimitStore } from '../plugins';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class Tasks extends router('/tasks') {
  @Get('/') list() { return ['write docs']; }
  @Get('/{task_id}') one() { return { id: 1 }; }
  @Post('/') @RateLimit({ limit: 2, window: '1m' }) create() { return [{ id: 2 }, 201]; }
  @Get('/open/ping') @RateLimit(false) ping() { return 'pong'; }
}

@RateLimit({ limit: 3, window: '30s' })
class Admin extends router('/admin') {
  @Get('/stats') stats() { return { ok: true }; }
  @Get('/users') users() { return []; }
}

/** A clock the test moves: windows end without sleeping. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function app(plugin = rateLimit({ limit: 5, window: '1m' })) {
  return new BaseRouter({ logger: silentLogger(), health: true }).includeRouter(Tasks).includeRouter(Admin).register(plugin);
}

async function hits(client: TestClient, path: string, count: number, options?: Parameters<TestClient['get']>[1]) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await client.get(path, options)).status);
  return statuses;
}

describe('rateLimit(): the global limit', () => {
  it('answers with RateLimit-Policy and RateLimit, then 429 with Retry-After past the limit', async () => {
    const client = new TestClient(app());
    const first = await client.get('/tasks');
    assert.equal(first.status, 200);
    assert.equal(first.headers['ratelimit-policy'], '"default";q=5;w=60');
    assert.equal(first.headers.ratelimit, '"default";r=4;t=60');
    assert.deepEqual(await hits(client, '/tasks/1', 4), [200, 200, 200, 200]);
    const refused = await client.get('/tasks');
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.json(), { error: 'Too Many Requests' });
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(refused.headers['ratelimit-policy'], '"default";q=5;w=60');
    assert.equal(refused.headers.ratelimit, '"default";r=0;t=60');
    await client.close();
  });

  it('counts one window per client: a new window starts once it ends (a moved clock, no sleep)', async () => {
    const time = clock();
    const client = new TestClient(app(rateLimit({ limit: 2, window: '10s', store: memoryStore({ now: time.now }) })));
    assert.deepEqual(await hits(client, '/tasks', 3), [200, 200, 429]);
    time.advance(4_000);
    const waiting = await client.get('/tasks');
    assert.equal(waiting.headers['retry-after'], '6');
    time.advance(6_000);
    const again = await client.get('/tasks');
    assert.equal(again.status, 200);
    assert.equal(again.headers.ratelimit, '"default";r=1;t=10');
    await client.close();
  });

  it('never limits the built-in routes (health probes, docs) nor @RateLimit(false) routes', async () => {
    const client = new TestClient(app(rateLimit({ limit: 1 })));
    assert.deepEqual(await hits(client, '/healthz', 5), [200, 200, 200, 200, 200]);
    assert.deepEqual(await hits(client, '/docs/openapi.json', 3), [200, 200, 200]);
    assert.deepEqual(await hits(client, '/tasks/open/ping', 3), [200, 200, 200]);
    assert.equal((await client.get('/healthz')).headers.ratelimit, undefined);
    assert.deepEqual(await hits(client, '/tasks', 2), [200, 429]);
    await client.close();
  });

  it('global: false limits only the @RateLimit routes', async () => {
    const client = new TestClient(app(rateLimit({ global: false })));
    assert.deepEqual(await hits(client, '/tasks', 5), [200, 200, 200, 200, 200]);
    assert.equal((await client.get('/tasks')).headers.ratelimit, undefined);
    assert.deepEqual(await hits(client, '/admin/stats', 4), [200, 200, 200, 429]);
    await client.close();
  });
});

describe('@RateLimit per route and router', () => {
  it('a handler\'s limit overrides the global one, counted for that route alone', async () => {
    const client = new TestClient(app());
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.post('/tasks')).status);
    assert.deepEqual(statuses, [201, 201, 429]);
    const listed = await client.get('/tasks');
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.ratelimit, '"default";r=4;t=60');
    const refused = await client.post('/tasks');
    assert.equal(refused.headers['ratelimit-policy'], '"Tasks.create";q=2;w=60');
    await client.close();
  });

  it('a router class\'s limit is one count shared by its routes', async () => {
    const client = new TestClient(app());
    assert.deepEqual([...(await hits(client, '/admin/stats', 2)), ...(await hits(client, '/admin/users', 2))], [200, 200, 200, 429]);
    assert.equal((await client.get('/admin/users')).headers['ratelimit-policy'], '"Admin";q=3;w=30');
    await client.close();
  });

  it('refuses options it cannot limit with where the class is defined, with a coded error', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ limit: 0 }, /limit: 0 is not a positive integer/],
      [{ limit: 1.5 }, /limit/],
      [{ limit: 5, window: '1 fortnight' }, /window/],
      [{ limit: 5, window: 10 }, /window/],
      [{ limit: 5, key: 'user' }, /key/],
      [{ limit: 5, name: 'has "quotes"' }, /name/],
      [null, /options/],
    ];
    for (const [options, message] of bad) {
      assert.throws(() => RateLimit(options as never), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'TRELLIS_ERR_RATE_LIMIT_OPTION');
        assert.match(error.message, message);
        return true;
      });
    }
  });
});

describe('keys', () => {
  class Who extends Middleware {
    dispatch(request: Request, callNext: CallNext) {
      const token = request.headers.authorization;
      if (!token) return Promise.resolve(new (require('../response').JSONResponse)({ error: 'Unauthorized' }, { status: 401 }));
      request.user = { sub: token.slice(7) };
      return callNext(request);
    }
  }

  @Use(Who)
  class Me extends router('/me') {
    @Get('/') @RateLimit({ limit: 2, key: (request) => request.user?.sub }) me(): object { return { ok: true }; }
  }

  it('a key function runs after the guards: each user has a count, request.user known; refusals count by address', async () => {
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Me).register(rateLimit({ limit: 100 })));
    const ada = { headers: { authorization: 'Bearer ada' } };
    const bob = { headers: { authorization: 'Bearer bob' } };
    assert.deepEqual(await hits(client, '/me', 3, ada), [200, 200, 429]);
    assert.deepEqual(await hits(client, '/me', 2, bob), [200, 200]);
    // No token: the guard refuses before the keyed limit; the refusals are counted by address, under its limit.
    assert.deepEqual(await hits(client, '/me', 4), [401, 401, 429, 429]);
    await client.close();
  });

  it('an address limit runs before the guards: bad tokens are counted too', async () => {
    @Use(Who)
    @RateLimit({ limit: 2 })
    class Guarded extends router('/guarded') {
      @Get('/') one() { return { ok: true }; }
    }
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Guarded).register(rateLimit({ global: false })));
    assert.deepEqual(await hits(client, '/guarded', 3), [401, 401, 429]);
    await client.close();
  });

  it('hostile keys reach the store bounded: 10 kB headers and keys are hashed to a few dozen characters', async () => {
    const seen: string[] = [];
    const inner = memoryStore();
    const store: RateLimitStore = { hit: (key, windowMs) => (seen.push(key), inner.hit(key, windowMs)) };
    @RateLimit({ limit: 5, key: (request) => request.headers['x-user'] as string | undefined })
    class Keyed extends router('/keyed') {
      @Get('/') one() { return { ok: true }; }
    }
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Keyed).register(rateLimit({ store, trustProxy: true })));
    const huge = 'x'.repeat(10_000);
    assert.equal((await client.get('/keyed', { headers: { 'x-user': huge } })).status, 200);
    assert.equal((await client.get('/keyed', { headers: { 'x-user': huge } })).headers.ratelimit, '"Keyed";r=3;t=60');
    assert.equal((await client.get('/keyed', { headers: { 'x-forwarded-for': `${huge}, 10.0.0.1` } })).status, 200);
    assert.equal((await client.get('/keyed', { headers: { 'x-user': '\u0000;"\r' } })).status, 200);
    assert.ok(seen.every((key) => key.length < 100), `keys too long: ${seen.map((key) => key.length)}`);
    await client.close();
  });
});

describe('hostile and broken', () => {
  it('a key function that throws is a 500 for that request, logged; the app goes on', async () => {
    @RateLimit({ limit: 5, key: () => { throw new Error('no tenant'); } })
    class Broken extends router('/broken') {
      @Get('/') one() { return { ok: true }; }
    }
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Broken).includeRouter(Tasks).register(rateLimit({ limit: 5 })));
    const res = await client.get('/broken');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.equal((await client.get('/tasks')).status, 200);
    await client.close();
  });

  it('a store that throws or rejects is unavailable: open lets through, closed answers 503', async () => {
    const failing: RateLimitStore[] = [{ hit: () => { throw new Error('down'); } }, { hit: () => Promise.reject(new Error('down')) }];
    for (const store of failing) {
      const open = new TestClient(app(rateLimit({ store })));
      assert.equal((await open.get('/tasks')).status, 200);
      const closed = new TestClient(app(rateLimit({ store, onStoreError: 'closed' })));
      const refused = await closed.get('/tasks');
      assert.equal(refused.status, 503);
      assert.deepEqual(refused.json(), { error: 'Service Unavailable' });
      await open.close();
      await closed.close();
    }
  });

  it('HEAD counts as the GET it runs; unmatched paths are not counted', async () => {
    const client = new TestClient(app(rateLimit({ limit: 2 })));
    assert.equal((await client.head('/tasks')).status, 200);
    assert.deepEqual(await hits(client, '/nowhere', 3), [404, 404, 404]);
    assert.deepEqual(await hits(client, '/tasks', 2), [200, 429]);
    await client.close();
  });
});

describe('config.yaml rate_limit:', () => {
  const configured = (values: Record<string, unknown>) =>
    new BaseRouter({ logger: silentLogger() }).provide(new Config(values)).includeRouter(Tasks);

  it('rateLimit() with no options reads the section', async () => {
    const client = new TestClient(configured({ rate_limit: { limit: 2, window: '30s' } }).register(rateLimit()));
    assert.deepEqual(await hits(client, '/tasks', 3), [200, 200, 429]);
    assert.equal((await client.get('/tasks')).headers['ratelimit-policy'], '"default";q=2;w=30');
    await client.close();
  });

  it('names each setting that does not fit', () => {
    assert.throws(
      () => configured({ rate_limit: { limit: 0, window: 'soon', store: 'disk', on_store_error: 'maybe', trust_proxy: ['nope'], ipv6_subnet: 200 } }).register(rateLimit()),
      (error: Error & { problems?: Array<{ message: string }> }) => {
        const messages = (error.problems ?? []).map((problem) => problem.message).join('\n');
        for (const setting of ['limit', 'window', 'store', 'on_store_error', 'trust_proxy', 'ipv6_subnet']) assert.match(messages, new RegExp(`rate_limit.${setting}`));
        return true;
      },
    );
  });

  it('store: redis without redis.url is a coded error; store: auto counts in memory then', async () => {
    assert.throws(() => configured({ rate_limit: { store: 'redis' } }).register(rateLimit()), /redis.url is empty/);
    const client = new TestClient(configured({ rate_limit: { limit: 1, store: 'auto' }, redis: { url: '' } }).register(rateLimit()));
    assert.deepEqual(await hits(client, '/tasks', 2), [200, 429]);
    await client.close();
  });
});

describe('OpenAPI', () => {
  it('documents a 429 with Retry-After and the RateLimit headers on limited routes only', async () => {
    const built = app(rateLimit({ limit: 5 }));
    await built.start();
    const document = built.openapi();
    const refused = document.paths['/tasks'].get.responses['429'];
    assert.match(refused.description, /more than 5 in 60 s/);
    assert.deepEqual(Object.keys(refused.headers ?? {}), ['Retry-After', 'RateLimit-Policy', 'RateLimit']);
    assert.equal(document.paths['/tasks/open/ping'].get.responses['429'], undefined);
    assert.match(document.paths['/admin/stats'].get.responses['429'].description, /more than 3 in 30 s \(Admin\)/);
    assert.ok(document.components?.schemas?.HTTPError);
    await built.stop();
  });
});
