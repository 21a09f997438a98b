import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import helmet from 'helmet';
import { IsString } from 'class-validator';
import { BaseRouter, Get, Injectable, JSONResponse, Middleware, Post, router, type CallNext, type Request } from '../index';
import { Body, Header, Int, Path, Req } from '../param';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class AddHeader extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    response.headers.set('x-a', '1');
    return response;
  }
}

// What RequireToken leaves for the handlers (declared for the whole test program: a name of this file's own).
declare module '../index' {
  interface RequestState {
    middlewareTestUser?: string;
  }
}

class RequireToken extends Middleware {
  dispatch(request: Request, callNext: CallNext) {
    if (request.headers.authorization !== 'Bearer secret') {
      return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
    }
    request.state.middlewareTestUser = 'admin';
    return callNext(request);
  }
}

const order: string[] = [];
function tracer(name: string) {
  return class extends Middleware {
    async dispatch(request: Request, callNext: CallNext) {
      order.push(`${name}>`);
      const response = await callNext(request);
      order.push(`<${name}`);
      return response;
    }
  };
}

class Payload {
  @IsString() name!: string;
}

class Admin extends router('/admin') {
  constructor() {
    super();
    this.addMiddleware(RequireToken);
  }
  @Get('/stats/{n}') stats(@Path('n', { type: Int }) n: number, @Req() request: Request) { return { n, user: request.state.middlewareTestUser }; }
  @Post('/items') create(@Body() body: Payload) { return body; }
}

class Public extends router('/public') {
  @Get() hello() { return { hello: 'world' }; }
  @Get('/boom') boom() { throw new Error('boom'); }
}

const quiet = silentLogger();

describe('middleware', () => {
  it('sees the downstream response and may change it (global: every route, 404s and 405s too)', async () => {
    const client = new TestClient(new BaseRouter().includeRouter(new Public()).addMiddleware(AddHeader));
    for (const [path, status] of [['/public', 200], ['/missing', 404]] as const) {
      const res = await client.get(path);
      assert.equal(res.status, status);
      assert.equal(res.headers['x-a'], '1', path);
    }
    assert.equal((await client.post('/public')).headers['x-a'], '1');
  });

  it('sees errors as responses', async () => {
    const client = new TestClient(new BaseRouter({ logger: quiet }).includeRouter(new Public()).addMiddleware(AddHeader));
    const res = await client.get('/public/boom');
    assert.equal(res.status, 500);
    assert.equal(res.headers['x-a'], '1');
  });

  it('is router-scoped with addMiddleware in the constructor, and runs before parameter validation', async () => {
    const client = new TestClient(new BaseRouter().includeRouter(new Admin()).includeRouter(new Public()));
    assert.equal((await client.get('/public')).status, 200, 'other routers are not affected');
    const rejected = await client.get('/admin/stats/not-a-number');
    assert.equal(rejected.status, 401, 'auth rejects before a 422');
    assert.deepEqual(rejected.json(), { error: 'Unauthorized' });
    assert.equal((await client.post('/admin/items', { json: {} })).status, 401);
    const ok = await client.get('/admin/stats/3', { headers: { authorization: 'Bearer secret' } });
    assert.deepEqual(ok.json(), { n: 3, user: 'admin' });
    const invalid = await client.get('/admin/stats/x', { headers: { authorization: 'Bearer secret' } });
    assert.equal(invalid.status, 422);
  });

  it('runs global middleware outside router middleware, in the order added', async () => {
    class Traced extends router('/t') {
      constructor() {
        super();
        this.addMiddleware(tracer('router'));
      }
      @Get() get() { order.push('handler'); return {}; }
    }
    order.length = 0;
    await new TestClient(new BaseRouter().includeRouter(new Traced()).addMiddleware(tracer('one'), tracer('two'))).get('/t');
    assert.deepEqual(order, ['one>', 'two>', 'router>', 'handler', '<router', '<two', '<one']);
  });

  it('turns an error thrown by middleware into an error response', async () => {
    class Broken extends Middleware {
      dispatch(): never { throw Object.assign(new Error('Slow down'), { status: 429 }); }
    }
    const res = await new TestClient(new BaseRouter().includeRouter(new Public()).addMiddleware(AddHeader, Broken)).get('/public');
    assert.equal(res.status, 429);
    assert.deepEqual(res.json(), { error: 'Slow down' });
    assert.equal(res.headers['x-a'], '1');
  });

  it('constructs middleware classes with injected services', async () => {
    class Settings { header = 'from-settings'; }
    @Injectable()
    class Configured extends Middleware {
      constructor(private readonly settings: Settings) { super(); }
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        response.headers.set('x-setting', this.settings.header);
        return response;
      }
    }
    const app = new BaseRouter().provide(Settings).includeRouter(new Public()).addMiddleware(Configured);
    assert.equal((await new TestClient(app).get('/public')).headers['x-setting'], 'from-settings');
  });
});

describe('Express-style middleware', () => {
  it('runs cors and helmet globally through the adapter', async () => {
    const app = new BaseRouter().includeRouter(new Public()).addMiddleware(cors({ origin: 'https://example.test' }), helmet());
    const client = new TestClient(app);
    const res = await client.get('/public', { headers: { origin: 'https://example.test' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'https://example.test');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(res.json(), { hello: 'world' });
    const preflight = await client.options('/public', { headers: { origin: 'https://example.test', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
  });

  it('runs per router, gives Express helpers (req.get, res.status().json()) and can answer by itself', async () => {
    const gate = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      const expressReq = req as IncomingMessage & { get(name: string): string | undefined };
      const expressRes = res as ServerResponse & { status(code: number): { json(body: unknown): void } };
      if (expressReq.get('x-key') !== 'k') return expressRes.status(403).json({ error: 'Forbidden' });
      next();
    };
    class Gated extends router('/gated') {
      constructor() {
        super();
        this.addMiddleware(gate);
      }
      @Get() ok(@Header('x-key') key: string) { return { key }; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Gated()).includeRouter(new Public()));
    const denied = await client.get('/gated');
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.json(), { error: 'Forbidden' });
    assert.deepEqual((await client.get('/gated', { headers: { 'x-key': 'k' } })).json(), { key: 'k' });
    assert.equal((await client.get('/public')).status, 200);
  });

  it('turns next(error) into an error response', async () => {
    const failing = (_req: IncomingMessage, _res: ServerResponse, next: (e?: unknown) => void) => next(Object.assign(new Error('Bad origin'), { status: 400 }));
    const res = await new TestClient(new BaseRouter().includeRouter(new Public()).addMiddleware(failing)).get('/public');
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), { error: 'Bad origin' });
  });
});
