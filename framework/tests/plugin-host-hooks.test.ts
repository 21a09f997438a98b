import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, closeGracefully, Get, Injectable, JSONResponse, Middleware, router, serverUrl, type CallNext, type Request } from '../index';
import type { Plugin } from '../plugins';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

class Tasks extends router('/tasks') {
  @Get('/') list(): JSONResponse {
    return new JSONResponse(['write docs']);
  }

  @Get('/{id}') one(): JSONResponse {
    return new JSONResponse({ id: 1 });
  }
}

const plugin = (name: string, register: Plugin['register']): Plugin => ({ name, register });

describe('host.onResponse', () => {
  it('changes every response before it is written: routes, 404s, 405s and the docs pages, the encode stage last', async () => {
    const seen: string[] = [];
    const app = new BaseRouter({ sourceTypes: false })
      .register(
        plugin('stamp', (host) => {
          host.onResponse((_request, response) => void response.headers.set('x-encoded', 'no'), { stage: 'encode' });
          host.onResponse((request, response) => {
            seen.push(`${request.method} ${request.path} ${response.status}`);
            response.headers.set('x-stamp', String(response.status));
            response.headers.set('x-encoded', 'before');
          });
        }),
      )
      .includeRouter(Tasks);
    const client = new TestClient(app);
    for (const [path, status] of [['/tasks', 200], ['/nothing', 404], ['/docs/openapi.json', 200]] as const) {
      const res = await client.get(path);
      assert.equal(res.status, status);
      assert.equal(res.headers['x-stamp'], String(status));
      assert.equal(res.headers['x-encoded'], 'no', 'the encode stage runs after the headers stage');
    }
    const res = await client.request('DELETE', '/tasks');
    assert.equal(res.status, 405);
    assert.equal(res.headers['x-stamp'], '405');
    assert.deepEqual(seen, ['GET /tasks 200', 'GET /nothing 404', 'GET /docs/openapi.json 200', 'DELETE /tasks 405']);
  });

  it('turns a hook that throws into a logged 500 with the request id, and the app serves on', async () => {
    const { logger, lines } = capturedLog();
    let fail = true;
    const app = new BaseRouter({ logger, sourceTypes: false })
      .register(
        plugin('flaky', (host) =>
          host.onResponse(() => {
            if (fail) throw new Error('hook broke');
          }),
        ),
      )
      .includeRouter(Tasks);
    const client = new TestClient(app);
    const broken = await client.get('/tasks');
    assert.equal(broken.status, 500);
    assert.deepEqual(broken.json(), { error: 'Internal Server Error' });
    assert.ok(lines.some((line) => line.msg === 'GET /tasks: a response hook failed' && line.err?.message === 'hook broke' && line.reqId === broken.headers['x-request-id']));
    fail = false;
    assert.equal((await client.get('/tasks')).status, 200);
  });
});

describe('host.routeMiddleware', () => {
  class Guard extends Middleware {
    dispatch(request: Request, callNext: CallNext) {
      if (request.headers.authorization !== 'Bearer ok') return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
      (request as Request & { who?: string }).who = 'ok';
      return callNext(request);
    }
  }

  @Injectable()
  class Guarded extends router('/guarded') {
    @Get('/') list(): JSONResponse {
      return new JSONResponse({ ok: true });
    }
  }

  it('adds middleware to the routes a selector picks, outside or inside their guards', async () => {
    const order: string[] = [];
    const tag = (name: string) =>
      new (class extends Middleware {
        dispatch(request: Request, callNext: CallNext) {
          order.push(`${name}:${(request as Request & { who?: string }).who ?? 'anonymous'}`);
          return callNext(request);
        }
      })();
    const outer = tag('outer');
    const inner = tag('inner');
    const app = new BaseRouter({ sourceTypes: false })
      .register(
        plugin('tags', (host) => {
          host.routeMiddleware((route) => (route.path.startsWith('/guarded') ? outer : undefined));
          host.routeMiddleware((route) => (route.path.startsWith('/guarded') ? inner : undefined), { at: 'inner' });
        }),
      )
      .includeRouter(new Guarded().addMiddleware(Guard))
      .includeRouter(Tasks);
    const client = new TestClient(app);
    assert.equal((await client.get('/guarded', { headers: { authorization: 'Bearer ok' } })).status, 200);
    assert.deepEqual(order, ['outer:anonymous', 'inner:ok']);
    assert.equal((await client.get('/guarded')).status, 401);
    assert.deepEqual(order.slice(2), ['outer:anonymous'], 'a refused request never reaches the inner middleware');
    assert.equal((await client.get('/tasks')).status, 200);
    assert.equal(order.length, 3, 'routes the selectors leave alone get nothing');
  });
});

describe('host.instance', () => {
  @Injectable()
  class Clock {
    now() {
      return 42;
    }
  }

  @Injectable()
  class Reporter {
    constructor(readonly clock: Clock) {}
  }

  it('builds the class with injection when the app starts, and refuses reads before', async () => {
    let get: (() => Reporter) | undefined;
    const app = new BaseRouter({ sourceTypes: false })
      .provide(Clock)
      .register(plugin('reporter', (host) => void (get = host.instance(Reporter))));
    assert.throws(() => get!(), (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_APP_NOT_STARTED');
    await app.start();
    assert.equal(get!().clock.now(), 42);
    await app.stop();
  });

  it('checks its constructor when the app freezes, as a router\'s', () => {
    const app = new BaseRouter({ sourceTypes: false }).register(plugin('reporter', (host) => void host.instance(Reporter)));
    assert.throws(() => app.handler, (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_UNKNOWN_DEPENDENCY');
  });
});

describe('host.upgrade and host.onDrain', () => {
  it('gives upgrade requests to the plug-in that takes them, 404s the rest, and drains before the server closes', async () => {
    const drained: string[] = [];
    const app = new BaseRouter({ sourceTypes: false, docs: false })
      .register(
        plugin('echo-upgrade', (host) => {
          host.upgrade((req, socket) => {
            if (req.url !== '/echo') return false;
            socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
            return true;
          });
          host.onDrain(() => drained.push('drain'));
        }),
      )
      .includeRouter(Tasks);
    const server = await app.listen({ host: '127.0.0.1', port: 0 });
    const url = serverUrl(server);
    const upgrade = (path: string) =>
      new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${url}${path}`, { headers: { connection: 'upgrade', upgrade: 'echo' } });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve(String(res.statusCode));
        });
        req.on('response', (res) => {
          res.resume();
          resolve(String(res.statusCode));
        });
        req.on('error', reject);
        req.end();
      });
    assert.equal(await upgrade('/echo'), '101');
    assert.equal(await upgrade('/elsewhere'), '404');
    assert.equal(await new Promise((resolve) => httpRequest(`${url}/tasks`, (res) => (res.resume(), resolve(res.statusCode))).end()), 200);
    assert.equal(await closeGracefully(server, 5_000), true);
    assert.deepEqual(drained, ['drain']);
  });

  it('is undefined on an app whose plug-ins take no upgrades, so Node serves an Upgrade header as a plain request', async () => {
    const app = new BaseRouter({ sourceTypes: false, docs: false }).includeRouter(Tasks);
    assert.equal(app.upgrade, undefined);
    const server = await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = server.address() as { port: number };
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /tasks HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('write docs')) {
          socket.destroy();
          resolve(text);
        }
      });
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    await closeGracefully(server, 5_000);
  });
});
