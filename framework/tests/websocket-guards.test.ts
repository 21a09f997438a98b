import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BaseRouter, Get, HTTPException, Injectable, JSONResponse, Middleware, RateLimit, router, Scopes, Use, type CallNext, type Request } from '../index';
import { apiKeyAuth, jwtAuth } from '../auth';
import { rateLimit, websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, OnMessage, type WebSocketClient } from '../websocket';
import { SECRET, token } from './fixtures/auth-tokens';
import { capturedLog } from './fixtures/captured-log';
import { closed, frames } from './fixtures/websocket-frames';

// Issue 40, items 1-3 and 7: every guard, scope and limit of the HTTP routes holds on the upgrade and on messages.

interface Refusal {
  status: number;
  body: string;
}

async function refused(opening: Promise<unknown>): Promise<Refusal> {
  try {
    await opening;
  } catch (error) {
    return error as Refusal;
  }
  throw new Error('the upgrade was accepted');
}

const bearer = async (claims: Record<string, unknown>) => ({ authorization: `Bearer ${await token(SECRET, claims)}` });

class Deny extends Middleware {
  static calls = 0;
  dispatch() {
    Deny.calls++;
    return new JSONResponse({ error: 'Forbidden by Deny' }, { status: 403 });
  }
}

@Injectable()
@Use(jwtAuth({ secret: SECRET }))
@Scopes('admin')
class AdminFeed extends gateway('/ws/admin') {
  static purged = 0;
  @OnMessage('purge') @Scopes('purge') purge() {
    AdminFeed.purged++;
    return { event: 'purged' };
  }
  @OnMessage('hello') hello(client: WebSocketClient) {
    return { event: 'hello', data: client.request.user?.sub };
  }
}

@Injectable()
@Use(jwtAuth({ secret: SECRET }))
class TaskFeed extends gateway('/ws/tasks') {
  static purged = 0;
  @OnMessage('purge') @Scopes('admin') purge() {
    TaskFeed.purged++;
    return { event: 'purged' };
  }
  @OnMessage('list') list() {
    return { event: 'tasks', data: [] };
  }
}

@Injectable()
class OpenFeed extends gateway('/ws/open') {
  static secrets = 0;
  static denied = 0;
  @OnMessage('secret') @Use(jwtAuth({ secret: SECRET })) secret(_client: WebSocketClient, _data: unknown, request: Request) {
    OpenFeed.secrets++;
    return { event: 'secret', data: request.user?.sub };
  }
  @OnMessage('denied') @Use(Deny) denied() {
    OpenFeed.denied++;
    return { event: 'denied' };
  }
  @OnMessage('ping') ping() {
    return { event: 'pong' };
  }
}

function app(...gateways: Array<new (...args: never[]) => object>) {
  const log = capturedLog();
  const base = new BaseRouter({ logger: log.logger });
  return { base, client: new TestClient(base.register(websockets({ gateways: gateways as never }))), lines: log.lines };
}

describe('@Scopes on a gateway class and on a handler', () => {
  const { client } = app(AdminFeed, TaskFeed);
  after(() => client.close());

  it('the upgrade answers 403 insufficient_scope with the challenge HTTP gives', async () => {
    const refusal = await refused(client.websocket('/ws/admin', { headers: await bearer({ scope: 'tasks:read' }) }));
    assert.equal(refusal.status, 403);
    assert.deepEqual(JSON.parse(refusal.body), { error: 'The token lacks a scope this route needs' });
  });

  it('the same request to an HTTP route with @Scopes gets the same body and WWW-Authenticate', async () => {
    @Use(jwtAuth({ secret: SECRET }))
    class Admin extends router('/admin') {
      @Get('') @Scopes('admin') get() {
        return {};
      }
    }
    const http = new TestClient(new BaseRouter({ logger: capturedLog().logger }).includeRouter(Admin));
    const response = await http.get('/admin', { headers: await bearer({ scope: 'tasks:read' }) });
    assert.equal(response.status, 403);
    assert.deepEqual(response.json(), { error: 'The token lacks a scope this route needs' });
    assert.equal(response.headers['www-authenticate'], 'Bearer error="insufficient_scope", error_description="The token lacks a scope this route needs", scope="admin"');
    await http.close();
  });

  it('a token with the class scope is upgraded; its handler scope is checked on each message', async () => {
    const socket = await client.websocket('/ws/admin', { headers: await bearer({ scope: 'admin' }) });
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'purge' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'The token lacks a scope this route needs' } });
    socket.send(JSON.stringify({ event: 'hello' }));
    assert.deepEqual(await received.next(), { event: 'hello', data: 'ada' });
    assert.equal(AdminFeed.purged, 0, 'the handler never ran');
    socket.close();
    const both = await client.websocket('/ws/admin', { headers: await bearer({ scope: 'admin purge' }) });
    const answers = frames(both);
    both.send(JSON.stringify({ event: 'purge' }));
    assert.deepEqual(await answers.next(), { event: 'purged' });
    assert.equal(AdminFeed.purged, 1);
    both.close();
  });

  it('a handler @Scopes under the class guard: tasks:read is upgraded, but its purge is refused and never runs', async () => {
    const socket = await client.websocket('/ws/tasks', { headers: await bearer({ scope: 'tasks:read' }) });
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'purge' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'The token lacks a scope this route needs' } });
    socket.send(JSON.stringify({ event: 'list' }));
    assert.deepEqual(await received.next(), { event: 'tasks', data: [] });
    assert.equal(TaskFeed.purged, 0);
    socket.close();
  });

  it('a token that expires while the connection is open is refused by the handlers that check it', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const socket = await client.websocket('/ws/tasks', { headers: await bearer({ scope: 'admin', exp }) });
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'purge' }));
    assert.deepEqual(await received.next(), { event: 'purged' });
    while (Date.now() / 1000 < exp + 1) await new Promise((resolve) => setTimeout(resolve, 100));
    socket.send(JSON.stringify({ event: 'purge' }));
    const refusal = await received.next();
    assert.equal(refusal.event, 'error');
    assert.match(refusal.data.error, /expired/i);
    socket.close();
  });

  it('@Scopes on a gateway with no scope-aware guard refuses the start, as on HTTP', async () => {
    @Scopes('admin')
    class Unguarded extends gateway('/ws/unguarded') {}
    const bad = new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Unguarded] }));
    await assert.rejects(bad.start(), (error: Error & { code?: string; cause?: { code?: string } }) => {
      assert.equal(error.code ?? error.cause?.code, 'TRELLIS_ERR_SCOPES_UNGUARDED');
      return true;
    });
  });

  it('@Scopes on a handler whose only scope-aware guard is app-wide refuses the registration (app guards run on the upgrade only)', () => {
    class Handler extends gateway('/ws/handler') {
      @OnMessage('purge') @Scopes('admin') purge() {}
    }
    assert.throws(
      () => new BaseRouter({ logger: capturedLog().logger }).addMiddleware(jwtAuth({ secret: SECRET })).register(websockets({ gateways: [Handler] })),
      (error: Error & { code?: string; cause?: { code?: string } }) => {
        assert.equal(error.code, 'TRELLIS_ERR_PLUGIN_REGISTER');
        assert.equal(error.cause?.code, 'TRELLIS_ERR_SCOPES_UNGUARDED');
        assert.match(error.message, /Handler @OnMessage\('purge'\)/);
        return true;
      },
    );
  });
});

describe('@Use on an @OnMessage handler', () => {
  const { client } = app(OpenFeed);
  after(() => client.close());

  it('runs on each of its messages: no token is the 401 body as an error frame, a token passes and sets request.user', async () => {
    const socket = await client.websocket('/ws/open');
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'secret', data: 1 }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Missing bearer token: send Authorization: Bearer <token>' } });
    assert.equal(OpenFeed.secrets, 0);
    socket.send(JSON.stringify({ event: 'ping' }));
    assert.deepEqual(await received.next(), { event: 'pong' });
    socket.close();
    const signed = await client.websocket('/ws/open', { headers: await bearer({ sub: 'grace' }) });
    const answers = frames(signed);
    signed.send(JSON.stringify({ event: 'secret', data: 1 }));
    assert.deepEqual(await answers.next(), { event: 'secret', data: 'grace' });
    assert.equal(OpenFeed.secrets, 1);
    signed.close();
  });

  it('a guard that always answers 403 is never skipped', async () => {
    const socket = await client.websocket('/ws/open');
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'denied' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Forbidden by Deny' } });
    assert.equal(OpenFeed.denied, 0);
    assert.ok(Deny.calls >= 1);
    socket.close();
  });

  it('an Express function on a handler is refused when the plug-in registers', () => {
    class Express extends gateway('/ws/express') {
      @OnMessage('x') @Use((_req: unknown, _res: unknown, next: () => void) => next()) x() {}
    }
    assert.throws(() => new BaseRouter().register(websockets({ gateways: [Express] })), /Express function, which cannot guard a WebSocket message/);
  });
});

describe('app-wide middleware on upgrades', () => {
  @Injectable()
  class Feed extends gateway('/ws/feed') {
    @OnMessage('ping') ping() {
      return { event: 'pong' };
    }
  }
  class Things extends router('/api/things') {
    @Get('') list() {
      return [];
    }
  }
  const order: string[] = [];
  class Trace extends Middleware {
    async dispatch(request: Request, next: CallNext) {
      order.push(`app ${request.path}`);
      const response = await next(request);
      response.headers.set('x-traced', '1'); // shapes the response: harmless on an upgrade
      return response;
    }
  }
  class GatewayGuard extends Middleware {
    dispatch(request: Request, next: CallNext) {
      order.push(`gateway ${request.path}`);
      return next(request);
    }
  }
  @Use(GatewayGuard)
  class Guarded extends gateway('/ws/guarded') {}

  const log = capturedLog();
  const base = new BaseRouter({ logger: log.logger })
    .addMiddleware(Trace, apiKeyAuth({ lookup: ['right-key-0123456789'] }))
    .includeRouter(Things)
    .register(websockets({ gateways: [Feed, Guarded] }));
  const client = new TestClient(base);
  after(() => client.close());

  it('an API key required app-wide refuses the upgrade to an unguarded gateway with 401, as it refuses GET /api/things', async () => {
    assert.equal((await client.get('/api/things')).status, 401);
    const refusal = await refused(client.websocket('/ws/feed'));
    assert.equal(refusal.status, 401);
    assert.equal(JSON.parse(refusal.body).error, (await client.get('/api/things')).json().error);
    const socket = await client.websocket('/ws/feed', { headers: { 'x-api-key': 'right-key-0123456789' } });
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'ping' }));
    assert.deepEqual(await received.next(), { event: 'pong' });
    socket.close();
  });

  it('app middleware runs first, then the gateway class guards, in the order HTTP runs them', async () => {
    order.length = 0;
    const socket = await client.websocket('/ws/guarded', { headers: { 'x-api-key': 'right-key-0123456789' } });
    assert.deepEqual(order, ['app /ws/guarded', 'gateway /ws/guarded']);
    socket.close();
  });

  it('a plain GET of a gateway path passes the same middleware, then answers 426 Upgrade Required', async () => {
    assert.equal((await client.get('/ws/feed')).status, 401);
    const response = await client.get('/ws/feed', { headers: { 'x-api-key': 'right-key-0123456789' } });
    assert.equal(response.status, 426);
    assert.equal(response.headers.upgrade, 'websocket');
  });

  it('the upgrade route is not in the OpenAPI document', () => {
    assert.equal(base.openapi().paths?.['/ws/feed'], undefined);
  });
});

describe('rate limits on upgrades', () => {
  @Injectable()
  class Feed extends gateway('/ws/feed') {}
  @RateLimit({ limit: 2, window: '1m' })
  class Limited extends gateway('/ws/limited') {}
  @RateLimit(false)
  class Exempt extends gateway('/ws/exempt') {}

  it('a global limit of 3 counts upgrades refused by a guard: 401, 401, 401, 429', async () => {
    const client = new TestClient(
      new BaseRouter({ logger: capturedLog().logger })
        .register(rateLimit({ limit: 3, window: '1m' }))
        .addMiddleware(apiKeyAuth({ lookup: ['right-key-0123456789'] }))
        .register(websockets({ gateways: [Feed] })),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await refused(client.websocket('/ws/feed', { headers: { 'x-api-key': 'wrong' } }))).status);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    await client.close();
  });

  it('the same on HTTP: the global limit counts what an app-wide guard refuses (it runs before the app middleware)', async () => {
    class Things extends router('/api/things') {
      @Get('') list() {
        return [];
      }
    }
    const client = new TestClient(
      new BaseRouter({ logger: capturedLog().logger })
        .register(rateLimit({ limit: 3, window: '1m' }))
        .addMiddleware(apiKeyAuth({ lookup: ['right-key-0123456789'] }))
        .includeRouter(Things),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.get('/api/things', { headers: { 'x-api-key': 'wrong' } })).status);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    await client.close();
  });

  it('@RateLimit on a gateway class limits its upgrades (and @RateLimit(false) exempts one)', async () => {
    const client = new TestClient(
      new BaseRouter({ logger: capturedLog().logger }).register(rateLimit({ limit: 100, window: '1m' })).register(websockets({ gateways: [Limited, Exempt] })),
    );
    const first = await client.websocket('/ws/limited');
    const second = await client.websocket('/ws/limited');
    const refusal = await refused(client.websocket('/ws/limited'));
    assert.equal(refusal.status, 429);
    assert.deepEqual(JSON.parse(refusal.body), { error: 'Too Many Requests' });
    for (let i = 0; i < 3; i++) (await client.websocket('/ws/exempt')).close();
    first.close();
    second.close();
    await client.close();
  });
});

describe('onConnect that throws', () => {
  @Injectable()
  class Checked extends gateway('/ws/checked/{room}') {
    static handled = 0;
    async onConnect(client: WebSocketClient) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (client.params.room === 'secret') throw new HTTPException(403, 'Not a member of this room');
      if (client.params.room === 'broken') throw new Error('database down');
    }
    @OnMessage('ping') ping() {
      Checked.handled++;
      return { event: 'pong' };
    }
  }
  const { client, lines } = app(Checked);
  after(() => client.close());

  it('an HTTPException closes with 1008 after its error frame; the messages sent meanwhile are never handled', async () => {
    const socket = await client.websocket('/ws/checked/secret');
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'ping' }));
    const [frame, close] = await Promise.all([received.next(), closed(socket)]);
    assert.deepEqual(frame, { event: 'error', data: { error: 'Not a member of this room' } });
    assert.deepEqual(close, { code: 1008, reason: 'Not a member of this room' });
    assert.equal(Checked.handled, 0);
  });

  it('any other error closes with 1011, logged', async () => {
    const socket = await client.websocket('/ws/checked/broken');
    socket.send(JSON.stringify({ event: 'ping' }));
    assert.deepEqual(await closed(socket), { code: 1011, reason: 'Internal Server Error' });
    assert.equal(Checked.handled, 0);
    assert.ok(lines.some((line) => line.msg === 'a WebSocket onConnect hook failed' && line.err?.message === 'database down' && typeof line.client === 'string'));
  });

  it('messages sent before an async onConnect finished are handled once it has, in order', async () => {
    const socket = await client.websocket('/ws/checked/open');
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'ping' }));
    socket.send(JSON.stringify({ event: 'ping' }));
    assert.deepEqual([await received.next(), await received.next()], [{ event: 'pong' }, { event: 'pong' }]);
    socket.close();
  });
});
