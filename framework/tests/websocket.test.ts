import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { IsInt, IsString, Length, Min } from 'class-validator';
import { BaseRouter, HTTPException, Injectable } from '../index';
import { websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, OnMessage, Rooms, type WebSocketClient } from '../websocket';
import { capturedLog } from './fixtures/captured-log';
import { closed, frames } from './fixtures/websocket-frames';

class Subscribe {
  @IsString() @Length(1, 50) room!: string;
}

class Add {
  @IsInt() @Min(0) a!: number;
  @IsInt() @Min(0) b!: number;
}

@Injectable()
class Feed extends gateway('/ws/rooms/{room}') {
  constructor(private readonly rooms: Rooms) {
    super();
  }
  onConnect(client: WebSocketClient) {
    client.join(client.params.room!);
    client.send({ event: 'hello', data: { room: client.params.room } });
  }
  @OnMessage('subscribe') subscribe(client: WebSocketClient, data: Subscribe) {
    client.join(data.room);
    return { event: 'subscribed', data: { room: data.room, isInstance: data instanceof Subscribe } };
  }
  @OnMessage('add') async add(_client: WebSocketClient, data: Add) {
    await Promise.resolve();
    return { event: 'sum', data: data.a + data.b };
  }
  @OnMessage('shout') shout(client: WebSocketClient, data: { room: string; text: string }) {
    this.rooms.broadcast(data.room, { event: 'said', data: { text: data.text, from: client.params.room } });
  }
  @OnMessage('echo') echo(_client: WebSocketClient, data: unknown) {
    return { event: 'echo', data };
  }
  @OnMessage('teapot') teapot() {
    throw new HTTPException(418, 'No coffee');
  }
  @OnMessage('boom') boom() {
    throw new Error('secret detail');
  }
  @OnMessage('reject') async reject() {
    throw new Error('secret rejection');
  }
}

function app() {
  const log = capturedLog();
  const client = new TestClient(new BaseRouter({ logger: log.logger }).register(websockets({ gateways: [Feed] })));
  return { client, lines: log.lines };
}

describe('WebSocket gateways: messages', () => {
  const { client, lines } = app();
  after(() => client.close());

  it('connects to a gateway with path params: onConnect joins the room and greets', async () => {
    const socket = await client.websocket('/ws/rooms/lobby');
    const received = frames(socket);
    assert.deepEqual(await received.next(), { event: 'hello', data: { room: 'lobby' } });
    socket.close();
  });

  it('validates the data by its DTO class and answers with what the handler returns', async () => {
    const socket = await client.websocket('/ws/rooms/a');
    const received = frames(socket);
    await received.next();
    socket.send(JSON.stringify({ event: 'subscribe', data: { room: 'news' } }));
    assert.deepEqual(await received.next(), { event: 'subscribed', data: { room: 'news', isInstance: true } });
    socket.send(JSON.stringify({ event: 'add', data: { a: 2, b: 3 } }));
    assert.deepEqual(await received.next(), { event: 'sum', data: 5 });
    socket.close();
  });

  it('invalid data gets an error frame with the 422 body, and the connection stays open', async () => {
    const socket = await client.websocket('/ws/rooms/a');
    const received = frames(socket);
    await received.next();
    socket.send(JSON.stringify({ event: 'add', data: { a: -1, b: 1.5 } }));
    const error = await received.next();
    assert.equal(error.event, 'error');
    assert.equal(error.data.error, 'Validation failed');
    assert.deepEqual(error.data.details.map((d: { field: string }) => d.field).sort(), ['a', 'b']);
    assert.equal(error.data.details[0].location, 'body');
    socket.send(JSON.stringify({ event: 'subscribe' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Validation failed', details: [{ location: 'body', field: '', message: 'Input should be an object' }] } });
    socket.send(JSON.stringify({ event: 'add', data: { a: 1, b: 1 } }));
    assert.deepEqual(await received.next(), { event: 'sum', data: 2 });
    socket.close();
  });

  it('broadcasts to every client in a room, and to no one else', async () => {
    const [one, two, other] = await Promise.all([client.websocket('/ws/rooms/x'), client.websocket('/ws/rooms/x'), client.websocket('/ws/rooms/y')]);
    const [r1, r2, r3] = [frames(one), frames(two), frames(other)];
    await Promise.all([r1.next(), r2.next(), r3.next()]);
    one.send(JSON.stringify({ event: 'shout', data: { room: 'x', text: 'hi' } }));
    assert.deepEqual(await r1.next(), { event: 'said', data: { text: 'hi', from: 'x' } });
    assert.deepEqual(await r2.next(), { event: 'said', data: { text: 'hi', from: 'x' } });
    other.send(JSON.stringify({ event: 'echo', data: 1 }));
    assert.deepEqual(await r3.next(), { event: 'echo', data: 1 }); // the broadcast did not reach room y first
    for (const socket of [one, two, other]) socket.close();
  });

  it("a handler's HTTPException is its message; any other error is a bare 500 frame, logged, never a crash", async () => {
    const socket = await client.websocket('/ws/rooms/a');
    const received = frames(socket);
    await received.next();
    socket.send(JSON.stringify({ event: 'teapot' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'No coffee' } });
    socket.send(JSON.stringify({ event: 'boom' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Internal Server Error' } });
    socket.send(JSON.stringify({ event: 'reject' }));
    assert.deepEqual(await received.next(), { event: 'error', data: { error: 'Internal Server Error' } });
    const logged = lines.filter((line) => line.msg === 'a WebSocket handler failed');
    assert.deepEqual(logged.map((line) => [line.event, line.err?.message]), [['boom', 'secret detail'], ['reject', 'secret rejection']]);
    socket.send(JSON.stringify({ event: 'echo', data: 'still here' }));
    assert.deepEqual(await received.next(), { event: 'echo', data: 'still here' });
    socket.close();
  });

  it('an unknown path is the 404 of the app; the refusal carries its status', async () => {
    await assert.rejects(client.websocket('/ws/nowhere'), (error: { status: number; body: string }) => {
      assert.equal(error.status, 404);
      return true;
    });
  });
});

describe('WebSocket gateways: hostile messages', () => {
  const { client } = app();
  after(() => client.close());

  const cases: Array<[string, string | Buffer, string]> = [
    ['binary frames', Buffer.from([1, 2, 3]), 'Binary messages are not accepted: send JSON text {"event": ..., "data": ...}'],
    ['text that is not JSON', '{"event": "echo", ', 'Malformed JSON message'],
    ['JSON that is not an object', '[1, 2]', 'A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to 200 characters'],
    ['a JSON string', '"echo"', 'A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to 200 characters'],
    ['no event', '{"data": 1}', 'A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to 200 characters'],
    ['an event that is not a string', '{"event": 42}', 'A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to 200 characters'],
    ['an unknown event', '{"event": "nope"}', 'Unknown event "nope"'],
    ['a __proto__ key', '{"event": "echo", "data": {"__proto__": {"admin": true}}}', 'JSON body may not contain "__proto__" or "constructor.prototype" keys'],
    ['deep nesting', `{"event": "echo", "data": ${'['.repeat(5000)}${']'.repeat(5000)}}`, 'JSON body is nested deeper than'],
  ];
  for (const [name, payload, message] of cases) {
    it(`${name}: an error frame, the connection stays open`, async () => {
      const socket = await client.websocket('/ws/rooms/h');
      const received = frames(socket);
      await received.next();
      socket.send(payload);
      const error = await received.next();
      assert.equal(error.event, 'error');
      assert.ok(error.data.error.startsWith(message), error.data.error);
      socket.send(JSON.stringify({ event: 'echo', data: 'ok' }));
      assert.deepEqual(await received.next(), { event: 'echo', data: 'ok' });
      socket.close();
    });
  }

  it('a message over maxPayload closes the connection with 1009', async () => {
    const small = new TestClient(new BaseRouter({ logger: capturedLog().logger }).register(websockets({ gateways: [Feed], maxPayload: 1024 })));
    after(() => small.close());
    const socket = await small.websocket('/ws/rooms/big');
    socket.send(JSON.stringify({ event: 'echo', data: 'x'.repeat(2048) }));
    assert.equal((await closed(socket)).code, 1009);
  });

  it('many connections opened and dropped at once leave the server serving', async () => {
    const sockets = await Promise.all(Array.from({ length: 50 }, () => client.websocket('/ws/rooms/churn')));
    for (const socket of sockets) socket.terminate();
    const socket = await client.websocket('/ws/rooms/after');
    const received = frames(socket);
    assert.deepEqual(await received.next(), { event: 'hello', data: { room: 'after' } });
    socket.close();
  });
});
