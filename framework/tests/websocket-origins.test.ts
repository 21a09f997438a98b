import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BaseRouter, Config, Injectable, JSONResponse, Middleware, Use, type CallNext, type Request } from '../index';
import { websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, OnMessage } from '../websocket';
import { capturedLog } from './fixtures/captured-log';
import { frames } from './fixtures/websocket-frames';

// Issue 40, items 5 and 6: cross-site WebSocket hijacking (a browser sends the user's cookies with an upgrade from
// any site, and CORS does not apply to upgrades) and the gateways' own connection caps.

class SessionCookie extends Middleware {
  dispatch(request: Request, next: CallNext) {
    if (request.cookies.session !== 'valid-session') return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
    request.user = { sub: 'ada' };
    return next(request);
  }
}

@Injectable()
@Use(SessionCookie)
class Account extends gateway('/ws/account') {
  @OnMessage('whoami') whoami(_client: unknown, _data: unknown, request: Request) {
    return { event: 'me', data: request.user?.sub };
  }
}

@Injectable()
class Widget extends gateway('/ws/widget', { origins: ['https://partner.example.org', 'null'] }) {}

async function status(opening: Promise<{ close(): void }>): Promise<number> {
  try {
    (await opening).close();
    return 101;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

const cookie = { cookie: 'session=valid-session' };

describe('Origin of upgrades: the cors origins of config.yaml by default', () => {
  const app = new BaseRouter({ logger: capturedLog().logger }).provide(new Config({ cors: { origins: ['https://app.example.com'] } }));
  const client = new TestClient(app.register(websockets({ gateways: [Account, Widget] })));
  after(() => client.close());

  it('a cookie-authenticated upgrade from another site is 403; the guard would have let it in', async () => {
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'https://evil.attacker.net' } })), 403);
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'null' } })), 403);
  });

  it('the allowed origin, the app’s own origin and a client that sends no Origin (not a browser) are upgraded', async () => {
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'https://app.example.com' } })), 101);
    const socket = await client.websocket('/ws/account', { headers: cookie });
    const received = frames(socket);
    socket.send(JSON.stringify({ event: 'whoami' }));
    assert.deepEqual(await received.next(), { event: 'me', data: 'ada' });
    socket.close();
  });

  it("a page of the app's own origin (the Host it connects to) is upgraded", async () => {
    const probe = await client.websocket('/ws/account', { headers: cookie });
    const host = `127.0.0.1:${(probe as unknown as { _socket: { remotePort: number } })._socket.remotePort}`;
    probe.close();
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: `http://${host}` } })), 101);
    // The scheme is not compared: behind a TLS proxy the page is https and the app sees http. Another port is another origin.
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: `https://${host}` } })), 101);
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'http://127.0.0.1:1' } })), 403);
  });

  it('the refusal is the JSON envelope, and the guard ran first (a cookie-less request is 401)', async () => {
    await assert.rejects(client.websocket('/ws/account', { headers: { ...cookie, origin: 'https://evil.attacker.net' } }), (error: { status: number; body: string }) => {
      assert.deepEqual(JSON.parse(error.body), { error: 'This page origin may not open a WebSocket here' });
      return true;
    });
    assert.equal(await status(client.websocket('/ws/account', { headers: { origin: 'https://evil.attacker.net' } })), 401);
  });

  it("a gateway's own origins replace the app's: 'null' listed lets sandboxed pages in", async () => {
    assert.equal(await status(client.websocket('/ws/widget', { headers: { origin: 'https://partner.example.org' } })), 101);
    assert.equal(await status(client.websocket('/ws/widget', { headers: { origin: 'null' } })), 101);
    assert.equal(await status(client.websocket('/ws/widget', { headers: { origin: 'https://app.example.com' } })), 403);
  });
});

describe('Origin of upgrades: configured under websockets:, or same-origin only', () => {
  it('websockets.origins wins over cors.origins; patterns as CORS writes them', async () => {
    const config = new Config({ cors: { origins: ['https://app.example.com'] }, websockets: { origins: ['https://*.example.net'] } });
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).provide(config).register(websockets({ gateways: [Account] })));
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'https://live.example.net' } })), 101);
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'https://app.example.com' } })), 403);
    await client.close();
  });

  it('with no origins anywhere, only the app’s own pages and non-browser clients', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Account] })));
    assert.equal(await status(client.websocket('/ws/account', { headers: { ...cookie, origin: 'http://localhost:5173' } })), 403);
    assert.equal(await status(client.websocket('/ws/account', { headers: cookie })), 101);
    await client.close();
  });

  it('a key websockets: does not declare, and an origin that is not one, are refused where they are written', () => {
    assert.throws(
      () => new BaseRouter().provide(new Config({ websockets: { origin: ['https://app.example.com'] } })).register(websockets({ gateways: [Account] })),
      /websockets\.origin is not a setting of WebSocketSettings/,
    );
    assert.throws(() => new BaseRouter().register(websockets({ origins: ['https://app.example.com/path'] })), (error: Error & { cause?: { code?: string } }) => {
      assert.equal(error.cause?.code, 'TRELLIS_ERR_WEBSOCKET_OPTION');
      return true;
    });
  });
});

describe('the gateways’ own connection caps', () => {
  @Injectable()
  class Open extends gateway('/ws/open') {}

  it('per client address: past it an upgrade is 429 with Retry-After; a closed connection frees its slot', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Open], maxConnectionsPerClient: 3 })));
    const held = await Promise.all([1, 2, 3].map(() => client.websocket('/ws/open')));
    await assert.rejects(client.websocket('/ws/open'), (error: { status: number; body: string }) => {
      assert.equal(error.status, 429);
      assert.deepEqual(JSON.parse(error.body), { error: 'Too many WebSocket connections from this client' });
      return true;
    });
    held[0].close();
    await new Promise((resolve) => held[0].once('close', resolve));
    const again = await client.websocket('/ws/open');
    again.close();
    await client.close();
  });

  it('per process: past it an upgrade is 503, while HTTP requests are served', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger, health: true }).register(websockets({ gateways: [Open], maxConnections: 2 })));
    try {
      await Promise.all([client.websocket('/ws/open'), client.websocket('/ws/open')]);
      assert.equal(await status(client.websocket('/ws/open')), 503);
      assert.equal((await client.get('/healthz')).status, 200);
    } finally {
      await client.close();
    }
  });

  it('caps out of range are refused with their rule', () => {
    assert.throws(() => websockets({ maxConnections: 0 }).register({} as never), () => true);
    assert.throws(() => new BaseRouter().register(websockets({ maxConnectionsPerClient: 1.5 })), /maxConnectionsPerClient: 1\.5 \(a whole number of connections from 1\)/);
  });
});
