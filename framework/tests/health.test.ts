import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, router } from '../index';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';

class Db {
  healthy: boolean | 'throw' | 'hang' = true;
  async healthCheck() {
    if (this.healthy === 'throw') throw new Error('password authentication failed for user "notes"');
    if (this.healthy === 'hang') return new Promise(() => {});
    return this.healthy;
  }
}

@Injectable()
class NoteRouter extends router('/notes') {
  constructor(readonly db: Db) { super(); }
  @Get() list() { return []; }
}

describe('/healthz and /readyz', () => {
  it('are off unless asked for', async () => {
    const client = new TestClient(new BaseRouter().provide(new Db()).includeRouter(NoteRouter));
    assert.equal((await client.get('/healthz')).status, 404);
    assert.equal((await client.get('/readyz')).status, 404);
  });

  it('answer alive and ready once started, with each check by class, not to be cached by clients', async () => {
    const db = new Db();
    const client = new TestClient(new BaseRouter({ health: true }).provide(db).includeRouter(NoteRouter));
    assert.equal((await client.get('/notes')).status, 200); // starts the app
    const live = await client.get('/healthz');
    assert.deepEqual([live.status, live.json(), live.headers['cache-control']], [200, { status: 'ok' }, 'no-store']);
    const ready = await client.get('/readyz');
    assert.deepEqual([ready.status, ready.json(), ready.headers['cache-control']], [200, { status: 'ready', checks: { Db: 'up' } }, 'no-store']);
    assert.equal((await client.head('/readyz')).status, 200);
  });

  it('/readyz is 503 while the app starts (a probe starts it without waiting for it), and 200 once it has', async () => {
    let release!: () => void;
    @Injectable()
    class SlowPool {
      onStartup() { return new Promise<void>((resolve) => (release = resolve)); }
    }
    const app = new BaseRouter({ health: true, logger: silentLogger() }).provide(SlowPool, new Db()).includeRouter(NoteRouter);
    const client = new TestClient(app);
    const early = await client.get('/readyz');
    assert.equal(app.state, 'starting');
    assert.deepEqual([early.status, early.json(), early.headers['retry-after']], [503, { error: 'Service Unavailable', status: 'starting', checks: {} }, '1']);
    assert.equal((await client.get('/healthz')).status, 200);
    const waiting = client.get('/notes'); // waits for the start
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    assert.equal((await waiting).status, 200);
    assert.equal((await client.get('/readyz')).status, 200);
  });

  it('/readyz is 503 while a check fails, returns false or hangs past the timeout; the reason is logged, not answered', async () => {
    const db = new Db();
    const { logger, lines } = capturedLog();
    const client = new TestClient(new BaseRouter({ health: { timeout: 50, checkInterval: 0 }, logger }).provide(db).includeRouter(NoteRouter));
    await client.start();
    for (const healthy of ['throw', false, 'hang'] as const) {
      db.healthy = healthy;
      const res = await client.get('/readyz');
      assert.deepEqual([res.status, res.json()], [503, { error: 'Service Unavailable', status: 'failing', checks: { Db: 'down' } }], String(healthy));
      assert.doesNotMatch(res.text, /password/);
      db.healthy = true;
      assert.equal((await client.get('/readyz')).status, 200);
    }
    const changes = lines.filter((line) => line.msg?.startsWith('health check')).map((line) => [line.msg, line.hook, line.err?.message ?? line.err]);
    assert.deepEqual(changes, [
      ['health check failed', 'Db.healthCheck()', 'password authentication failed for user "notes"'],
      ['health check passed again', 'Db.healthCheck()', undefined],
      ['health check failed', 'Db.healthCheck()', 'returned false'],
      ['health check passed again', 'Db.healthCheck()', undefined],
      ['health check failed', 'Db.healthCheck()', 'no answer within 50 ms'],
      ['health check passed again', 'Db.healthCheck()', undefined],
    ]);
  });

  it('/readyz runs one check at a time and reuses its result: a burst of requests to a failing check is one call and one log line', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    class FailingDb {
      async healthCheck() {
        calls++;
        await gate;
        throw new Error('connection refused');
      }
    }
    const { logger, lines } = capturedLog();
    const client = new TestClient(new BaseRouter({ health: true, logger }).provide(new FailingDb()));
    await client.start();
    const burst = Array.from({ length: 200 }, () => client.get('/readyz'));
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    release();
    const answers = await Promise.all(burst);
    for (let n = 0; n < 100; n++) answers.push(await client.get('/readyz'));
    assert.deepEqual(new Set(answers.map((res) => `${res.status} ${res.json().status} ${res.json().checks.FailingDb}`)), new Set(['503 failing down']));
    assert.equal(calls, 1);
    assert.equal(lines.filter((line) => line.msg === 'health check failed').length, 1);
  });

  it('/readyz checks again once the interval has passed, and with checkInterval 0 on every request', async () => {
    let calls = 0;
    class CountedDb {
      healthCheck() {
        calls++;
        return true;
      }
    }
    const short = new TestClient(new BaseRouter({ health: { checkInterval: 20 } }).provide(new CountedDb()));
    await short.start();
    assert.equal((await short.get('/readyz')).status, 200);
    assert.equal(calls, 1);
    const deadline = Date.now() + 10_000;
    while (calls < 2 && Date.now() < deadline) {
      assert.equal((await short.get('/readyz')).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(calls, 2, 'checked again after 20 ms');

    calls = 0;
    const every = new TestClient(new BaseRouter({ health: { checkInterval: 0 } }).provide(new CountedDb()));
    await every.start();
    for (let n = 0; n < 5; n++) assert.equal((await every.get('/readyz')).status, 200);
    assert.equal(calls, 5);
  });

  it('/readyz is 503 once the app drains (SIGTERM), while other requests are still served', async () => {
    const app = new BaseRouter({ health: true }).provide(new Db()).includeRouter(NoteRouter);
    const client = new TestClient(app);
    await client.start();
    app.drain();
    const res = await client.get('/readyz');
    assert.deepEqual([res.status, res.json().status], [503, 'draining']);
    assert.equal((await client.get('/notes')).status, 200);
    assert.equal((await client.get('/healthz')).status, 200);
  });

  it('takes other paths, stays out of the OpenAPI document unless asked, and refuses bad options', () => {
    const hidden = new BaseRouter({ health: { path: '/livez', readyPath: '/ready' } });
    assert.deepEqual(hidden.routes.map((route) => `${route.method} ${route.path}`).filter((route) => !route.includes('/docs')), ['GET /livez', 'GET /ready']);
    assert.deepEqual(Object.keys(hidden.openapi().paths ?? {}), []);
    const shown = new BaseRouter({ health: { includeInSchema: true } });
    assert.deepEqual(Object.keys(shown.openapi().paths ?? {}), ['/healthz', '/readyz']);
    for (const [health, option] of [[{ path: 'healthz' }, 'path'], [{ path: '/a', readyPath: '/a' }, 'readyPath'], [{ timeout: 0 }, 'timeout'], [{ checkInterval: -1 }, 'checkInterval'], [{ checkInterval: 0.5 }, 'checkInterval']] as const) {
      assert.throws(() => new BaseRouter({ health }), (error: TrellisError) => error.code === 'TRELLIS_ERR_HEALTH_OPTION' && error.details.option === option);
    }
  });
});
