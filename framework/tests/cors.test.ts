import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Config, Cors, Delete, Get, JSONResponse, Middleware, Post, router, type CallNext, type Request } from '../index';
import { cors } from '../plugins';
import type { CorsOptions } from '../cors/options';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class Tasks extends router('/tasks') {
  @Get('/') list(): JSONResponse {
    return new JSONResponse([{ id: 1 }], { headers: { 'x-total': '1' } });
  }

  @Post('/') create(): JSONResponse {
    return new JSONResponse({ id: 2 }, { status: 201 });
  }

  @Get('/{id}') one(): JSONResponse {
    return new JSONResponse({ id: 1 }, { headers: { vary: 'Accept-Encoding' } });
  }

  @Delete('/{id}') remove(): JSONResponse {
    return new JSONResponse({ deleted: true }, { headers: { vary: 'origin' } });
  }
}

@Cors({ origins: ['https://admin.example.com'], credentials: true })
class Admin extends router('/admin') {
  @Get('/stats') stats(): JSONResponse {
    return new JSONResponse({ users: 3 });
  }

  @Cors(false) @Get('/private') secret(): JSONResponse {
    return new JSONResponse({ secret: true });
  }
}

const APP: CorsOptions = {
  origins: ['http://localhost:5173', 'https://*.example.com'],
  exposeHeaders: ['x-total'],
};

function client(options: CorsOptions | undefined = APP, setup: (app: BaseRouter) => void = () => {}): TestClient {
  const app = new BaseRouter({ sourceTypes: false });
  setup(app);
  return new TestClient(app.register(cors(options)).includeRouter(Tasks).includeRouter(Admin));
}

const preflight = (method: string, headers: Record<string, string> = {}) => ({
  headers: { origin: 'http://localhost:5173', 'access-control-request-method': method, ...headers },
});

describe('CORS preflights', () => {
  it('answers 204 with exactly the headers a browser checks', async () => {
    const res = await client().options('/tasks', preflight('POST', { 'access-control-request-headers': 'content-type, authorization' }));
    assert.equal(res.status, 204);
    assert.equal(res.body.length, 0);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, POST, PUT, PATCH, DELETE');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, authorization');
    assert.equal(res.headers['access-control-max-age'], '600');
    assert.equal(res.headers.vary, 'Origin, Access-Control-Request-Headers');
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
  });

  it('answers for a path that exists under another method (never 404/405); a path with no route stays 404', async () => {
    const c = client();
    const res = await c.options('/tasks', preflight('DELETE'));
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.equal((await c.options('/tasks/7', preflight('PUT'))).status, 204);
    const missing = await c.options('/nothing', preflight('GET'));
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.vary, 'Origin');
  });

  it('is answered before the app middleware: a guard never sees a preflight, and its 401 carries the CORS headers', async () => {
    class Guard extends Middleware {
      dispatch(request: Request, next: CallNext) {
        return request.headers.authorization ? next(request) : new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
      }
    }
    const c = client(APP, (app) => app.addMiddleware(new Guard()));
    assert.equal((await c.options('/tasks', preflight('POST'))).status, 204);
    const denied = await c.post('/tasks', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers['access-control-allow-origin'], 'http://localhost:5173', 'the page can read the 401');
  });

  it('gives a refused origin a 204 with no Access-Control-Allow-* header', async () => {
    const res = await client().options('/tasks', preflight('POST', { origin: 'https://evil.test' }));
    assert.equal(res.status, 204);
    assert.deepEqual(Object.keys(res.headers).filter((name) => name.startsWith('access-control-')), []);
    assert.equal(res.headers.vary, 'Origin');
  });

  it('lists configured headers and methods (upper-cased), credentials and max age', async () => {
    const res = await client({ origins: 'http://localhost:5173', methods: ['get', 'post'], headers: ['Content-Type', 'X-Api-Key'], credentials: true, maxAge: 30 })
      .options('/tasks', preflight('post', { 'access-control-request-headers': 'x-other' }));
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-methods'], 'GET, POST');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, x-api-key');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-max-age'], '30');
    assert.equal(res.headers.vary, 'Origin');
  });

  it('an OPTIONS without Access-Control-Request-Method is an ordinary OPTIONS (Allow), with CORS headers', async () => {
    const res = await client().options('/tasks', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS, POST');
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
  });
});

describe('CORS on actual responses', () => {
  it('allows a listed origin: Access-Control-Allow-Origin, exposed headers, Vary: Origin', async () => {
    const res = await client().get('/tasks', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.equal(res.headers['access-control-expose-headers'], 'x-total');
    assert.equal(res.headers.vary, 'Origin');
    assert.equal(res.headers['access-control-allow-methods'], undefined, 'preflight headers only on preflights');
  });

  it('sends Vary: Origin without an Origin header, and serves a refused origin as usual with no Access-Control-* header', async () => {
    const c = client();
    const plain = await c.get('/tasks');
    assert.equal(plain.headers.vary, 'Origin');
    assert.equal(plain.headers['access-control-allow-origin'], undefined);
    const refused = await c.get('/tasks', { headers: { origin: 'https://evil.test' } });
    assert.equal(refused.status, 200);
    assert.deepEqual(refused.json(), [{ id: 1 }]);
    assert.deepEqual(Object.keys(refused.headers).filter((name) => name.startsWith('access-control-')), []);
    assert.equal(refused.headers.vary, 'Origin');
  });

  it('appends Origin to an existing Vary once', async () => {
    const c = client();
    assert.equal((await c.get('/tasks/1')).headers.vary, 'Accept-Encoding, Origin');
    assert.equal((await c.delete('/tasks/1')).headers.vary, 'origin');
  });

  it('covers 404s, 405s and the docs pages', async () => {
    const c = client();
    const origin = { headers: { origin: 'https://app.example.com' } };
    for (const res of [await c.get('/nothing', origin), await c.put('/tasks', origin), await c.get('/docs/openapi.json', origin)]) {
      assert.equal(res.headers['access-control-allow-origin'], 'https://app.example.com', String(res.status));
      assert.equal(res.headers.vary, 'Origin');
    }
  });

  it("answers '*' to any origin with the wildcard and no credentials", async () => {
    const res = await client({}).get('/tasks', { headers: { origin: 'https://anyone.test' } });
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
  });
});

describe('@Cors on a router or handler', () => {
  it("replaces the app's options for its routes, preflights included", async () => {
    const c = client();
    const admin = { headers: { origin: 'https://admin.example.com' } };
    const res = await c.get('/admin/stats', admin);
    assert.equal(res.headers['access-control-allow-origin'], 'https://admin.example.com');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-expose-headers'], 'x-total', "the app's other options are kept");
    const app = await c.get('/admin/stats', { headers: { origin: 'http://localhost:5173' } });
    assert.equal(app.headers['access-control-allow-origin'], undefined, "the app's origins are replaced");
    const pre = await c.options('/admin/stats', preflight('GET', { origin: 'https://admin.example.com' }));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-credentials'], 'true');
    assert.equal(pre.headers['access-control-allow-origin'], 'https://admin.example.com');
    const head = await c.head('/admin/stats', admin);
    assert.equal(head.headers['access-control-allow-origin'], 'https://admin.example.com', 'HEAD served by the GET route');
  });

  it('turns CORS off with @Cors(false): no Vary, no Access-Control-* header, preflights answered as any OPTIONS', async () => {
    const c = client();
    const res = await c.get('/admin/private', { headers: { origin: 'https://admin.example.com' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.vary, undefined);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const pre = await c.options('/admin/private', preflight('GET', { origin: 'https://admin.example.com' }));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
  });

  it("refuses to start when a route's options allow credentials with origin '*'", async () => {
    @Cors({ credentials: true })
    class Open extends router('/open') {
      @Get('/') list() {
        return [];
      }
    }
    const app = new BaseRouter({ sourceTypes: false, logger: silentLogger() }).register(cors()).includeRouter(Open);
    await assert.rejects(app.start(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'TRELLIS_ERR_CORS_CREDENTIALS');
      assert.match(error.message, /^@Cors on Open\.list: credentials cannot go with origin '\*'/);
      return true;
    });
  });
});

describe('CORS from config.yaml', () => {
  const app = (section: unknown) => new BaseRouter({ sourceTypes: false }).provide(new Config({ cors: section })).register(cors()).includeRouter(Tasks);

  it('reads the cors: section (snake_case)', async () => {
    const res = await new TestClient(app({ origins: ['http://localhost:5173'], expose_headers: ['x-total'], max_age: 60, credentials: true }))
      .options('/tasks', preflight('GET'));
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-max-age'], '60');
  });

  it("refuses credentials with origin '*' at the setting, with the code", () => {
    assert.throws(() => app({ origins: '*', credentials: true }), (error: Error & { code?: string; path?: string; cause?: { code?: string } }) => {
      assert.equal(error.code, 'TRELLIS_ERR_CONFIG_SECTION');
      assert.equal(error.path, 'cors.credentials');
      assert.equal(error.cause?.code, 'TRELLIS_ERR_CORS_CREDENTIALS');
      assert.match(error.message, /TRELLIS_ERR_CORS_CREDENTIALS/);
      return true;
    });
  });

  it('locates an origin that is not one, and an unknown key', () => {
    assert.throws(() => app({ origins: ['http://localhost:5173/'] }), (error: Error & { path?: string }) => error.path === 'cors.origins' && /trailing slash/.test(error.message));
    assert.throws(() => app({ max_age: -1 }), (error: Error & { path?: string }) => error.path === 'cors.max_age');
    assert.throws(() => app({ origin: ['http://localhost:5173'] }), (error: Error & { path?: string }) => error.path === 'cors.origin');
  });
});
