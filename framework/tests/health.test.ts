import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, router, TrellisError } from '../index';
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

  it('answer alive and ready once started, with each check by class, never cached', async () => {
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
    const client = new TestClient(new BaseRouter({ health: { timeout: 50 }, logger }).provide(db).includeRouter(NoteRouter));
    await client.start();
    for (const healthy of ['throw', false, 'hang'] as const) {
      db.healthy = healthy;
      const res = await client.get('/readyz');
      assert.deepEqual([res.status, res.json()], [503, { error: 'Service Unavailable', status: 'failing', checks: { Db: 'down' } }], String(healthy));
      assert.doesNotMatch(res.text, /password/);
    }
    const failures = lines.filter((line) => line.msg === 'health check failed').map((line) => [line.hook, line.err?.message ?? line.err]);
    assert.deepEqual(failures, [
      ['Db.healthCheck()', 'password authentication failed for user "notes"'],
      ['Db.healthCheck()', 'returned false'],
      ['Db.healthCheck()', 'no answer within 50 ms'],
    ]);
    db.healthy = true;
    assert.equal((await client.get('/readyz')).status, 200);
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
    for (const [health, option] of [[{ path: 'healthz' }, 'path'], [{ path: '/a', readyPath: '/a' }, 'readyPath'], [{ timeout: 0 }, 'timeout']] as const) {
      assert.throws(() => new BaseRouter({ health }), (error: TrellisError) => error.code === 'TRELLIS_ERR_HEALTH_OPTION' && error.details.option === option);
    }
  });
});
