import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BaseRouter, Injectable, Middleware, JSONResponse, Use, type CallNext, type Request } from '../index';
import { jwtAuth } from '../auth';
import { websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, OnMessage, type WebSocketClient } from '../websocket';
import { SECRET, token } from './fixtures/auth-tokens';
import { capturedLog } from './fixtures/captured-log';
import { closed, frames, until } from './fixtures/websocket-frames';

class NeedsAdmin extends Middleware {
  dispatch(request: Request, next: CallNext) {
    if (request.user?.sub !== 'admin') return new JSONResponse({ error: 'Forbidden' }, { status: 403 });
    return next(request);
  }
}

@Injectable()
@Use(jwtAuth({ secret: SECRET }), NeedsAdmin)
class AdminFeed extends gateway('/ws/admin/{topic}') {
  onConnect(client: WebSocketClient) {
    client.send({ event: 'welcome', data: { user: client.request.user?.sub, topic: client.params.topic } });
  }
}

@Injectable()
class Flood extends gateway('/ws/flood') {
  static stopped = 0;
  @OnMessage('flood') flood(client: WebSocketClient) {
    const chunk = 'x'.repeat(16 * 1024);
    const more = () => {
      for (let i = 0; i < 16 && client.open; i++) client.send({ event: 'chunk', data: chunk });
      if (client.open) setImmediate(more);
      else Flood.stopped++;
    };
    more();
  }
  @OnMessage('echo') echo(_client: WebSocketClient, data: unknown) {
    return { event: 'echo', data };
  }
}

describe('WebSocket guards on the upgrade', () => {
  const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [AdminFeed] })));
  after(() => client.close());

  it('no token: the guard’s 401 is written on the socket, not upgraded', async () => {
    await assert.rejects(client.websocket('/ws/admin/news'), (error: { status: number; body: string }) => {
      assert.equal(error.status, 401);
      assert.equal(JSON.parse(error.body).error, 'Missing bearer token: send Authorization: Bearer <token>');
      return true;
    });
  });

  it('a valid token of another user: 403 from the second guard', async () => {
    const headers = { authorization: `Bearer ${await token(SECRET, { sub: 'ada' })}` };
    await assert.rejects(client.websocket('/ws/admin/news', { headers }), (error: { status: number }) => error.status === 403);
  });

  it('the admin’s token: upgraded, with request.user and the path params', async () => {
    const headers = { authorization: `Bearer ${await token(SECRET, { sub: 'admin' })}` };
    const socket = await client.websocket('/ws/admin/news', { headers });
    assert.deepEqual(await frames(socket).next(), { event: 'welcome', data: { user: 'admin', topic: 'news' } });
    socket.close();
  });
});

describe('WebSocket limits', () => {
  it('a peer that stops answering pings is terminated', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Flood], pingInterval: 50 })));
    after(() => client.close());
    const live = await client.websocket('/ws/flood');
    const dead = await client.websocket('/ws/flood');
    (dead as unknown as { _receiver: { removeAllListeners(event: string): void } })._receiver.removeAllListeners('ping'); // stops the automatic pong
    const deadClosed = closed(dead);
    let liveClosed = false;
    live.on('close', () => (liveClosed = true));
    const { code } = await deadClosed;
    assert.equal(code, 1006); // terminated, no close frame
    assert.equal(liveClosed, false);
    const received = frames(live);
    live.send(JSON.stringify({ event: 'echo', data: 'alive' }));
    assert.deepEqual(await received.next(), { event: 'echo', data: 'alive' });
  });

  it('a client that stops reading is closed with 1013 once more than maxBuffered waits, not buffered without bound', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Flood], maxBuffered: 256 * 1024 })));
    after(() => client.close());
    const socket = await client.websocket('/ws/flood');
    const received: unknown[] = [];
    socket.on('message', (data) => received.push(data));
    const done = closed(socket);
    socket.send(JSON.stringify({ event: 'flood' }));
    await until(() => received.length > 0);
    (socket as any)._socket.pause(); // stops reading: the server's data piles up until it gives up on the client
    await until(() => Flood.stopped > 0);
    (socket as any)._socket.resume();
    assert.deepEqual(await done, { code: 1013, reason: 'slow client' });
  });

  it('on drain every client gets 1001, and new upgrades are refused', async () => {
    const app = new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Flood] }));
    const client = new TestClient(app);
    after(() => client.close());
    const sockets = await Promise.all([client.websocket('/ws/flood'), client.websocket('/ws/flood')]);
    const done = sockets.map(closed);
    app.drain();
    for (const result of await Promise.all(done)) assert.deepEqual(result, { code: 1001, reason: 'server shutting down' });
    await assert.rejects(client.websocket('/ws/flood'), (error: { status: number }) => error.status === 503);
  });
});
