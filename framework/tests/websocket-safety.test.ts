import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BaseRouter, Injectable, Post, router } from '../index';
import { websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, OnMessage, Rooms, type WebSocketClient } from '../websocket';
import { capturedLog } from './fixtures/captured-log';
import { closed, frames, until } from './fixtures/websocket-frames';

// Issue 40, item 4: no message can end the process. Every place a gateway calls user code (its constructor,
// onConnect, onDisconnect, handlers, what they return, broadcasts) fails into an error frame or a log line; the
// process and the connection serve on. Before, a value JSON could not encode threw inside ws's `message` listener
// (or rejected unhandled): node:test reports that as a failure of the file, and a real process exits.

const circular = (): object => {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
};

@Injectable()
class Hostile extends gateway('/ws/hostile') {
  static disconnects = 0;
  constructor(private readonly rooms: Rooms) {
    super();
  }
  onConnect(client: WebSocketClient) {
    client.join('all');
  }
  async onDisconnect() {
    Hostile.disconnects++;
    throw new Error('onDisconnect failed');
  }
  @OnMessage('circular') circular() {
    return { event: 'loop', data: circular() };
  }
  @OnMessage('bigint') async bigint() {
    await Promise.resolve();
    return { event: 'big', data: 10n };
  }
  @OnMessage('to-json') toJson() {
    return {
      toJSON() {
        throw new Error('toJSON failed');
      },
    };
  }
  @OnMessage('not-json') notJson() {
    return () => 'a function JSON leaves out';
  }
  @OnMessage('then-throws') thenThrows() {
    return Object.defineProperty({}, 'then', {
      get() {
        throw new Error('then getter');
      },
    });
  }
  @OnMessage('broadcast-circular') broadcastCircular() {
    this.rooms.broadcast('all', circular());
  }
  @OnMessage('send-circular') sendCircular(client: WebSocketClient) {
    client.send(circular());
    return { event: 'after' };
  }
  @OnMessage('echo') echo(_client: WebSocketClient, data: unknown) {
    return { event: 'echo', data };
  }
}

describe('values JSON cannot encode, from every place a gateway calls user code', () => {
  const log = capturedLog();
  const client = new TestClient(new BaseRouter({ logger: log.logger }).register(websockets({ gateways: [Hostile] })));
  after(() => client.close());

  const cases = ['circular', 'bigint', 'to-json', 'not-json', 'then-throws', 'broadcast-circular', 'send-circular'];
  for (const event of cases) {
    it(`${event}: an error frame with the 500 body, one log line with the connection's id; the connection serves on`, async () => {
      const socket = await client.websocket('/ws/hostile');
      const received = frames(socket);
      const before = log.lines.length;
      socket.send(JSON.stringify({ event }));
      assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Internal Server Error' } });
      const logged = log.lines.slice(before).filter((line) => line.msg === 'a WebSocket handler failed');
      assert.equal(logged.length, 1);
      assert.equal(logged[0].event, event);
      assert.match(String(logged[0].client), /^[0-9a-f-]{36}$/);
      socket.send(JSON.stringify({ event: 'echo', data: 'alive' }));
      assert.deepEqual(await received.next(), { event: 'echo', data: 'alive' });
      socket.close();
    });
  }

  it('an onDisconnect that rejects is logged; the next client is served', async () => {
    const socket = await client.websocket('/ws/hostile');
    const before = Hostile.disconnects;
    socket.close();
    await closed(socket);
    await until(() => Hostile.disconnects > before && log.lines.some((line) => line.msg === 'a WebSocket onDisconnect hook failed'));
    const next = await client.websocket('/ws/hostile');
    const received = frames(next);
    next.send(JSON.stringify({ event: 'echo', data: 1 }));
    assert.deepEqual(await received.next(), { event: 'echo', data: 1 });
    next.close();
  });
});

describe('a broadcast of a value JSON cannot encode, made outside any handler', () => {
  @Injectable()
  class Feed extends gateway('/ws/feed') {
    onConnect(client: WebSocketClient) {
      client.join('feed');
    }
  }
  @Injectable()
  class Announce extends router('/announce') {
    constructor(private readonly rooms: Rooms) {
      super();
    }
    @Post('') announce() {
      this.rooms.broadcast('feed', circular());
      return { sent: true };
    }
  }

  it('fails the request that made it (a 500), never the process; the room still gets the next one', async () => {
    const client = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Feed] })).includeRouter(Announce));
    const socket = await client.websocket('/ws/feed');
    const received = frames(socket);
    assert.equal((await client.post('/announce')).status, 500);
    socket.send('not json');
    assert.equal((await received.next()).event, 'error');
    await client.close();
  });
});

describe("a gateway's constructor that throws", () => {
  @Injectable()
  class Broken extends gateway('/ws/broken') {
    constructor() {
      super();
      throw new Error('constructor failed');
    }
  }

  it('refuses the start, naming the gateway (nothing fails later, at the first connection)', async () => {
    const app = new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Broken] }));
    await assert.rejects(app.start(), (error: Error & { cause?: Error }) => {
      assert.match(`${error.message} ${error.cause?.message}`, /Broken/);
      assert.match(`${error.message} ${error.cause?.message}`, /constructor failed/);
      return true;
    });
  });
});
