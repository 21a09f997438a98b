import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { BaseRouter, Get, Injectable, JSONResponse, Middleware, Post, router, Use, type CallNext, type Request } from '../index';
import { TrellisError } from '../framework-error';
import { inspectApp } from '../inspect';
import { Body, Int, Path, Req } from '../param';
import { TestClient } from '../testing';

// What RequireToken leaves for the handlers (declared for the whole test program: a name of this file's own).
declare module '../index' {
  interface RequestState {
    guardsTestUser?: string;
  }
}

class RequireToken extends Middleware {
  dispatch(request: Request, callNext: CallNext) {
    if (request.headers.authorization !== 'Bearer secret') return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
    request.state.guardsTestUser = 'admin';
    return callNext(request);
  }
}

/** A middleware class that records `name` on the way in and out. */
function tracer(name: string, order: string[]) {
  return class extends Middleware {
    async dispatch(request: Request, callNext: CallNext) {
      order.push(`${name}>`);
      const response = await callNext(request);
      order.push(`<${name}`);
      return response;
    }
  };
}

class Item {
  @IsString() name!: string;
}

class Shop extends router('/shop') {
  @Get('/open') open() { return { open: true }; }

  @Get('/items/{id}')
  @Use(RequireToken)
  one(@Path('id', { type: Int }) id: number, @Req() request: Request) { return { id, user: request.state.guardsTestUser }; }

  @Post('/items')
  @Use(RequireToken)
  create(@Body() item: Item) { return [item, 201]; }
}

describe('@Use on a handler', () => {
  it("guards that route only, before its parameters are read (a guard's 401 beats a 422)", async () => {
    const client = new TestClient(new BaseRouter().includeRouter(Shop));
    assert.deepEqual((await client.get('/shop/open')).json(), { open: true });
    assert.equal((await client.get('/shop/items/not-a-number')).status, 401);
    assert.equal((await client.post('/shop/items', { json: { name: 5 } })).status, 401);
    const auth = { authorization: 'Bearer secret' };
    assert.deepEqual((await client.get('/shop/items/3', { headers: auth })).json(), { id: 3, user: 'admin' });
    assert.equal((await client.get('/shop/items/x', { headers: auth })).status, 422);
    assert.equal((await client.post('/shop/items', { json: { name: 5 }, headers: auth })).status, 422);
    assert.equal((await client.post('/shop/items', { json: { name: 'pen' }, headers: auth })).status, 201);
  });

  it('runs after the app, the router and the class middleware; several in one @Use and stacked @Use in the order written', async () => {
    const order: string[] = [];
    @Use(tracer('class-a', order), tracer('class-b', order))
    @Use(tracer('class-c', order))
    class Traced extends router('/t') {
      constructor() {
        super();
        this.addMiddleware(tracer('router', order));
      }
      @Get()
      @Use(tracer('method-a', order), tracer('method-b', order))
      @Use(tracer('method-c', order))
      get() {
        order.push('handler');
        return {};
      }
      @Get('/plain') plain() {
        order.push('plain');
        return {};
      }
    }
    const client = new TestClient(new BaseRouter().includeRouter(Traced).addMiddleware(tracer('app', order)));
    await client.get('/t');
    assert.deepEqual(order.splice(0), [
      ...['app>', 'router>', 'class-a>', 'class-b>', 'class-c>', 'method-a>', 'method-b>', 'method-c>'],
      'handler',
      ...['<method-c', '<method-b', '<method-a', '<class-c', '<class-b', '<class-a', '<router', '<app'],
    ]);
    await client.get('/t/plain');
    assert.deepEqual(order.splice(0), ['app>', 'router>', 'class-a>', 'class-b>', 'class-c>', 'plain', '<class-c', '<class-b', '<class-a', '<router', '<app']);
  });

  it('takes instances and Express (req, res, next) functions, and builds classes with injection, once per app', async () => {
    class Greeting {
      text = 'hi';
    }
    let built = 0;
    @Injectable()
    class Greet extends Middleware {
      constructor(private readonly greeting: Greeting) {
        super();
        built++;
      }
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        response.headers.set('x-greeting', this.greeting.text);
        return response;
      }
    }
    const gate = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      if (req.headers['x-key'] !== 'k') {
        res.statusCode = 403;
        return res.end('no');
      }
      next();
    };
    class Mixed extends router('/m') {
      @Get('/a') @Use(Greet, gate) a() { return 'a'; }
      @Get('/b') @Use(new RequireToken(), Greet) b() { return 'b'; }
    }
    const client = new TestClient(new BaseRouter().provide(Greeting).includeRouter(Mixed));
    assert.equal((await client.get('/m/a')).status, 403);
    const a = await client.get('/m/a', { headers: { 'x-key': 'k' } });
    assert.deepEqual([a.status, a.headers['x-greeting']], [200, 'hi']);
    assert.equal((await client.get('/m/b')).status, 401);
    assert.equal((await client.get('/m/b', { headers: { authorization: 'Bearer secret' } })).headers['x-greeting'], 'hi');
    assert.equal(built, 1);
  });

  it('refuses what is not middleware when the class is declared (an import cycle gives undefined)', () => {
    assert.throws(() => Use(undefined as never), (error: unknown) => {
      assert.ok(error instanceof TrellisError);
      assert.equal(error.code, 'TRELLIS_ERR_INVALID_MIDDLEWARE');
      assert.equal(error.details.value, 'undefined (an import cycle?)');
      return true;
    });
    assert.throws(() => Use(42 as never), { code: 'TRELLIS_ERR_INVALID_MIDDLEWARE' });
  });
});

describe('@Use on a router class', () => {
  it('guards every route of the class, a subclass inheriting its base class guards (base first)', async () => {
    const order: string[] = [];
    @Use(tracer('base', order))
    class Base extends router('/admin') {
      @Get('/stats') stats() { return { stats: true }; }
    }
    @Use(RequireToken)
    class Admin extends Base {
      @Get('/users') users() { return []; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(Admin).includeRouter(Shop));
    for (const path of ['/admin/stats', '/admin/users']) assert.equal((await client.get(path)).status, 401, path);
    assert.deepEqual(order.splice(0), ['base>', '<base', 'base>', '<base']);
    assert.equal((await client.get('/admin/users', { headers: { authorization: 'Bearer secret' } })).status, 200);
    assert.equal((await client.get('/shop/open')).status, 200);
  });
});

describe('route middleware in trellis/inspect', () => {
  it("lists each route's own middleware in the order it runs: the router's, the class's, the handler's", async () => {
    class Audit extends Middleware {
      dispatch(request: Request, callNext: CallNext) { return callNext(request); }
    }
    class Timing extends Middleware {
      dispatch(request: Request, callNext: CallNext) { return callNext(request); }
    }
    @Use(Audit)
    class Admin extends router('/admin') {
      constructor() {
        super();
        this.addMiddleware(Timing);
      }
      @Get('/stats') @Use(RequireToken) stats() { return {}; }
      @Get('/health') health() { return {}; }
    }
    const app = new BaseRouter({ docs: false }).includeRouter(Admin);
    await new TestClient(app).get('/admin/health');
    const middleware = Object.fromEntries(inspectApp(app).routes.map((route) => [route.path, route.middleware.map((m) => m.name)]));
    assert.deepEqual(middleware, { '/admin/stats': ['Timing', 'Audit', 'RequireToken'], '/admin/health': ['Timing', 'Audit'] });
  });
});
