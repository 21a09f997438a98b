import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import type { Logger } from '../core/logger';
import { connectRedis } from '../redis/connect';
import { redisBus } from '../websocket/redis-bus';
import type { RoomBus } from '../websocket/room-bus';

// A real Redis (TRELLIS_TEST_REDIS_URL, or the local default `.ci/run` starts): unreachable fails these tests.
const REDIS_URL = process.env.TRELLIS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of this file's own, so nothing else publishing on the server reaches these buses.
const prefix = () => `trellis-test-bus-${randomBytes(6).toString('hex')}`;

const closing: Array<() => Promise<unknown> | void> = [];
after(async () => {
  for (const close of closing.reverse()) await close();
});

interface Line {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

/** A logger that keeps its lines. */
function recorder(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: object | string, message?: string) =>
    void lines.push(typeof fields === 'string' ? { level, fields: {}, message: fields } : { level, fields: fields as Record<string, unknown>, message: message ?? '' });
  const logger = { lines, fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), child: () => logger };
  return logger;
}

/** A bus, closed after the file, and what it delivers (room and payload), in order. */
function bus(options: Parameters<typeof redisBus>[0]): { bus: RoomBus; got: string[] } {
  const made = redisBus(options);
  const got: string[] = [];
  made.subscribe((room, payload) => got.push(`${room}|${payload}`));
  closing.push(() => made.close());
  return { bus: made, got };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Publishes probes on `from` until `to` has delivered one: both are connected and subscribed. */
async function linked(from: RoomBus, to: { got: string[] }, room = 'probe'): Promise<void> {
  for (let n = 0; !to.got.some((line) => line.startsWith(`${room}|`)); n++) {
    if (n === 100) throw new Error(`no probe crossed Redis (${REDIS_URL}, TRELLIS_TEST_REDIS_URL) in 100 tries`);
    from.publish(room, String(n));
    await until(() => to.got.some((line) => line.startsWith(`${room}|`)), 'a probe', 200).catch(() => {});
  }
}

describe('redisBus', () => {
  it('delivers a broadcast once in every process on the same prefix, at once in its own, and not across prefixes', async () => {
    const shared = prefix();
    const a = bus({ url: REDIS_URL, prefix: shared });
    const b = bus({ url: REDIS_URL, prefix: shared });
    const other = bus({ url: REDIS_URL, prefix: prefix() });
    await linked(a.bus, b, 'probe-ab');
    await linked(b.bus, a, 'probe-ba');
    a.got.length = b.got.length = 0;

    a.bus.publish('tasks', '{"event":"created"}');
    assert.deepEqual(a.got, ['tasks|{"event":"created"}'], 'delivered in its own process synchronously');
    await until(() => b.got.length === 1, 'the other process');
    // B answers after it received A's message, so A's own copy came back through Redis before B's: skipped.
    b.bus.publish('tasks', 'from b');
    await until(() => a.got.length === 2, "B's message at A");
    assert.deepEqual(a.got, ['tasks|{"event":"created"}', 'tasks|from b']);
    assert.deepEqual(b.got, ['tasks|{"event":"created"}', 'tasks|from b']);
    assert.deepEqual(other.got, []);
  });

  it('carries rooms and payloads of any characters unchanged', async () => {
    const shared = prefix();
    const a = bus({ url: REDIS_URL, prefix: shared });
    const b = bus({ url: REDIS_URL, prefix: shared });
    await linked(a.bus, b);
    b.got.length = 0;
    const room = 'line\nbreak "quoted" ["json"] é ✓';
    const payload = '{"text":"two\nlines"}\n["x","y"]\n';
    a.bus.publish(room, payload);
    a.bus.publish('', '');
    await until(() => b.got.length === 2, 'both messages');
    assert.deepEqual(b.got, [`${room}|${payload}`, '|']);
  });

  it('ignores what else is published on its channel', async () => {
    const shared = prefix();
    const a = bus({ url: REDIS_URL, prefix: shared });
    const b = bus({ url: REDIS_URL, prefix: shared });
    await linked(a.bus, b);
    b.got.length = 0;
    const raw = connectRedis(REDIS_URL, { redis: { enableOfflineQueue: true } });
    closing.push(() => raw.quit());
    await raw.ping();
    for (const message of ['garbage', '\n', 'not json\npayload', '{"a":1}\npayload', '["only-one"]\npayload', '[1,2]\npayload', '["a","b","c"]\np']) {
      await raw.publish(`${shared}:rooms`, message);
    }
    a.bus.publish('tasks', 'real');
    await until(() => b.got.length > 0, 'the real message');
    assert.deepEqual(b.got, ['tasks|real']);
  });

  it('takes the URL alone, with the default prefix', async () => {
    const a = bus(REDIS_URL);
    const b = bus(REDIS_URL);
    await linked(a.bus, b, `probe-${randomBytes(4).toString('hex')}`);
  });

  it('without Redis, delivers in its own process, logs the outage once, and never throws', async () => {
    const logger = recorder();
    const a = bus({ url: 'redis://127.0.0.1:1', prefix: prefix(), logger });
    await until(() => logger.lines.some((line) => line.message === 'redis unavailable'), 'the outage line');
    for (let n = 0; n < 1_100; n++) a.bus.publish('tasks', String(n));
    assert.equal(a.got.length, 1_100);
    assert.equal(logger.lines.filter((line) => line.message === 'redis unavailable').length, 1);
    assert.equal(logger.lines.filter((line) => line.level === 'error' || line.level === 'fatal').length, 0);
    await a.bus.close();
    a.bus.publish('tasks', 'after close');
    assert.equal(a.got.length, 1_100);
  });

  it('drops what is published during an outage (one log line), and carries broadcasts again once Redis is back', async () => {
    const proxy = await tcpProxy(new URL(REDIS_URL));
    closing.push(() => proxy.close());
    const shared = prefix();
    const logger = recorder();
    const url = new URL(REDIS_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    const a = bus({ url: url.toString(), prefix: shared, logger });
    const b = bus({ url: REDIS_URL, prefix: shared });
    await linked(a.bus, b, 'before');
    await linked(b.bus, a, 'before-back');

    proxy.down();
    await until(() => logger.lines.some((line) => line.message === 'redis unavailable'), 'the outage line');
    a.bus.publish('tasks', 'lost 1');
    a.bus.publish('tasks', 'lost 2');
    assert.ok(a.got.includes('tasks|lost 1') && a.got.includes('tasks|lost 2'), 'still delivered in its own process');
    const dropped = logger.lines.filter((line) => line.message.startsWith('redis rooms: broadcasts reach'));
    assert.equal(dropped.length, 1);

    proxy.up();
    await until(() => logger.lines.some((line) => line.message === 'redis available again'), 'the recovery line', 20_000);
    await linked(b.bus, a, 'after-back');
    a.bus.publish('tasks', 'after');
    await until(() => b.got.includes('tasks|after'), 'the broadcast after the outage');
    assert.ok(!b.got.some((line) => line.startsWith('tasks|lost')), 'dropped, not queued');
    const recovered = logger.lines.find((line) => line.message.startsWith('redis rooms: redis is back'));
    assert.equal(recovered?.fields.dropped, 2);
  });
});

/** A TCP proxy to `target` that can refuse and cut its connections (`down`) and take them again (`up`). */
async function tcpProxy(target: URL): Promise<{ port: number; down(): void; up(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    down() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      refusing = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
