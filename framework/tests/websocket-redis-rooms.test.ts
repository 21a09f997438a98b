import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Config, Injectable, Post, router } from '../index';
import type { Logger } from '../core/logger';
import { BaseRouter } from '../app';
import { Path } from '../param';
import { websockets } from '../plugins';
import { TestClient } from '../testing';
import { gateway, redisBus, Rooms, type WebSocketClient } from '../websocket';

// Two apps, as two processes would be, sharing rooms through a real Redis (TRELLIS_TEST_REDIS_URL, or the local
// default `.ci/run` starts): unreachable fails these tests. Each test's room (and bus prefix) is its own.
const REDIS_URL = process.env.TRELLIS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const unique = (what: string) => `${what}-${randomBytes(6).toString('hex')}`;

const clients: TestClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

/** An app whose `/ws/room` clients join `room`, and whose `POST /say/{text}` broadcasts `text` there. */
function roomApp(room: string, options: { config?: Record<string, unknown>; bus?: ReturnType<typeof redisBus>; logger?: Logger } = {}): TestClient {
  @Injectable()
  class Feed extends gateway('/ws/room') {
    onConnect(client: WebSocketClient) {
      client.join(room);
    }
  }

  @Injectable()
  class SayRouter extends router('/say') {
    constructor(private readonly rooms: Rooms) {
      super();
    }

    @Post('/{text}')
    say(@Path('text') text: string) {
      this.rooms.broadcast(room, { text });
      return { said: text };
    }
  }

  const app = new BaseRouter({ logger: options.logger })
    .provide(new Config(options.config ?? {}))
    .register(websockets({ gateways: [Feed], bus: options.bus, pingInterval: 0 }))
    .includeRouter(SayRouter);
  const client = new TestClient(app);
  clients.push(client);
  return client;
}

type Socket = Awaited<ReturnType<TestClient['websocket']>>;

/** What `socket` receives from now on: the `text` of each message, in order. */
function heard(socket: Socket): string[] {
  const texts: string[] = [];
  socket.on('message', (data) => texts.push(JSON.parse(String(data)).text));
  return texts;
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Says probes through `from` until `at` has heard one: both apps are connected and subscribed. */
async function linked(from: TestClient, at: string[]): Promise<void> {
  for (let n = 0; !at.some((text) => text.startsWith('probe')); n++) {
    if (n === 100) throw new Error(`no probe crossed Redis (${REDIS_URL}, TRELLIS_TEST_REDIS_URL) in 100 tries`);
    assert.equal((await from.post(`/say/probe-${n}`)).status, 200);
    await until(() => at.some((text) => text.startsWith('probe')), 'a probe', 200).catch(() => {});
  }
}

/**
 * Two apps on one bus prefix with a client each, linked both ways; then `message` said through the first, and a
 * fence through each (a second copy would come before the other's fence): what each client heard, probes aside.
 */
async function sayOnce(first: TestClient, second: TestClient): Promise<[string[], string[]]> {
  const [one, two] = [heard(await first.websocket('/ws/room')), heard(await second.websocket('/ws/room'))];
  await linked(first, two);
  await linked(second, one);
  one.length = two.length = 0;
  await first.post('/say/message');
  await second.post('/say/fence-2');
  await first.post('/say/fence-1');
  await until(() => [one, two].every((texts) => texts.includes('fence-1') && texts.includes('fence-2')), 'both fences');
  return [one.sort(), two.sort()];
}

describe('Rooms across apps through Redis', () => {
  it("with config.yaml's redis.url, a broadcast made in one app reaches the clients of both, once", async () => {
    const room = unique('room');
    const config = { redis: { url: REDIS_URL } };
    const [one, two] = await sayOnce(roomApp(room, { config }), roomApp(room, { config }));
    assert.deepEqual(one, ['fence-1', 'fence-2', 'message']);
    assert.deepEqual(two, ['fence-1', 'fence-2', 'message']);
  });

  it('with a bus given as an option, on its own prefix; another prefix hears nothing', async () => {
    const room = unique('room');
    const prefix = unique('trellis-test-rooms');
    const first = roomApp(room, { bus: redisBus({ url: REDIS_URL, prefix }) });
    const second = roomApp(room, { bus: redisBus({ url: REDIS_URL, prefix }) });
    const stranger = heard(await roomApp(room, { bus: redisBus({ url: REDIS_URL, prefix: unique('elsewhere') }) }).websocket('/ws/room'));
    const [one, two] = await sayOnce(first, second);
    assert.deepEqual([one, two], [['fence-1', 'fence-2', 'message'], ['fence-1', 'fence-2', 'message']]);
    assert.deepEqual(stranger, []);
  });

  it("with config.yaml's websockets.room_prefix, apps on one Redis share rooms only with their own prefix", async () => {
    const room = unique('room');
    const ours = { redis: { url: REDIS_URL }, websockets: { room_prefix: unique('tasks-api') } };
    const theirs = { redis: { url: REDIS_URL }, websockets: { room_prefix: unique('billing-api') } };
    const stranger = heard(await roomApp(room, { config: theirs }).websocket('/ws/room'));
    const [one, two] = await sayOnce(roomApp(room, { config: ours }), roomApp(room, { config: ours }));
    assert.deepEqual([one, two], [['fence-1', 'fence-2', 'message'], ['fence-1', 'fence-2', 'message']]);
    assert.deepEqual(stranger, []);
  });

  it('refuses an empty websockets.room_prefix at its key', () => {
    assert.throws(() => roomApp('room', { config: { redis: { url: REDIS_URL }, websockets: { room_prefix: '' } } }), /room_prefix/);
  });

  it('without Redis reachable, the app serves, its own clients hear its broadcasts, and the outage is a warning', async () => {
    const lines: Array<[string, string]> = [];
    const at = (level: string) => (fields: object | string, message?: string) => void lines.push([level, typeof fields === 'string' ? fields : message ?? '']);
    const logger: Logger = { fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), child: () => logger };
    const app = roomApp(unique('room'), { config: { redis: { url: 'redis://127.0.0.1:1' } }, logger });
    const texts = heard(await app.websocket('/ws/room'));
    assert.equal((await app.post('/say/hello')).status, 200);
    await until(() => texts.length === 1, 'the message');
    assert.deepEqual(texts, ['hello']);
    await until(() => lines.some(([level, message]) => level === 'warn' && message === 'redis unavailable'), 'the outage warning');
    assert.deepEqual(lines.filter(([level]) => level === 'error' || level === 'fatal'), []);
  });

  it('refuses a redis.url that is not a redis:// URL when the plug-in registers', () => {
    assert.throws(() => roomApp('room', { config: { redis: { url: 'http://127.0.0.1:6379' } } }), /redis\.url/);
  });
});
