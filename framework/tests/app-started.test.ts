import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, Middleware, router, type CallNext, type Request } from '../index';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

class Ping extends router('/ping') {
  @Get() ping() { return { pong: true }; }
}
class Extra extends router('/extra') {
  @Get() extra() { return {}; }
}
class Service {}

const additions: Array<[string, (app: BaseRouter) => unknown]> = [
  ['includeRouter', (app) => app.includeRouter(Extra)],
  ['provide', (app) => app.provide(Service)],
  ['addMiddleware', (app) => app.addMiddleware(async (_req: unknown, _res: unknown, next: () => void) => next())],
  ['addExceptionHandler', (app) => app.addExceptionHandler(RangeError, () => [{ error: 'range' }, 400])],
  ['mountStatic', (app) => app.mountStatic('/files', __dirname)],
  ['favicon', (app) => app.favicon(__filename)],
  ['templates', (app) => app.templates(__dirname)],
];

function assertStarted(app: BaseRouter, when: string): void {
  for (const [method, add] of additions) {
    assert.throws(() => add(app), (error: unknown) => {
      assert.ok(error instanceof TrellisError, `${method} ${when}`);
      assert.equal(error.code, 'TRELLIS_ERR_APP_STARTED');
      assert.match(error.message, new RegExp(`^app\\.${method}\\(\\) after the app started serving`));
      return true;
    }, `${method} ${when}`);
  }
}

describe('an app that serves is frozen', () => {
  it('refuses additions after listen()', async () => {
    const app = new BaseRouter().includeRouter(Ping);
    const server = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      assertStarted(app, 'after listen');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses additions once its handler was read or it answered a request, and serves on unchanged', async () => {
    const read = new BaseRouter().includeRouter(Ping);
    void read.handler;
    assertStarted(read, 'after reading handler');

    const served = new BaseRouter().includeRouter(Ping);
    const client = new TestClient(served);
    assert.equal((await client.get('/ping')).status, 200);
    assertStarted(served, 'after a request');
    assert.equal((await client.get('/extra')).status, 404);
    assert.deepEqual((await client.get('/ping')).json(), { pong: true });
  });

  it('accepts everything before it serves, in any order', async () => {
    const app = new BaseRouter();
    for (const [, add] of additions) add(app);
    app.includeRouter(Ping);
    assert.equal((await new TestClient(app).get('/ping')).status, 200);
  });

  it('compiles route pipelines once: a middleware class is built once for every request', async () => {
    let built = 0;
    @Injectable()
    class Counted extends Middleware {
      constructor() {
        super();
        built++;
      }
      dispatch(request: Request, callNext: CallNext) {
        return callNext(request);
      }
    }
    const client = new TestClient(new BaseRouter().includeRouter(Ping).addMiddleware(Counted));
    for (let i = 0; i < 5; i++) assert.equal((await client.get('/ping')).status, 200);
    assert.equal((await client.get('/nowhere')).status, 404);
    assert.equal(built, 1);
  });
});
