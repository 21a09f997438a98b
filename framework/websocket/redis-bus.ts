import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger';
import { connectRedis } from '../redis/connect';
import type { RoomBus } from './room-bus';

/**
 * How {@link redisBus} connects: the server, the channel's prefix, who hears about outages.
 *
 * @example
 * ```ts
 * const bus = redisBus({ url: 'redis://127.0.0.1:6379/2', prefix: 'tasks-api', logger: app.logger });
 * ```
 */
export interface RedisBusOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://...` (config.yaml's `redis.url`). */
  url: string;
  /**
   * Names the one channel every process of the app publishes on, `<prefix>:rooms` (default `trellis`): apps that
   * share a Redis server but not their clients take prefixes of their own.
   */
  prefix?: string;
  /** Hears one `warn` line when Redis goes away, one `info` line when it is back, and one line per outage for the broadcasts dropped. */
  logger?: Logger;
}

/** Broadcasts published before the first connection is made wait for it, up to this many; the rest are dropped. */
const WAITING_MAX = 1_000;

/**
 * A {@link RoomBus} on Redis pub/sub, shared by every worker and instance that names the same server and prefix:
 * what one process publishes is delivered to its own clients at once (in memory, as {@link memoryBus} does) and to
 * every other process through Redis, exactly once (each message carries the id of the process that sent it, which
 * skips its own). Two connections, one to publish and one to listen; both reconnect on their own, and the listening
 * one subscribes again each time it does.
 *
 * While Redis is unavailable the process keeps serving: a broadcast still reaches this process's clients, but not
 * the other processes' (it is dropped, not queued, so no stale burst follows the outage), and the outage is
 * logged once when it starts, once when it ends, with how many broadcasts it dropped. Messages on the channel that
 * are not a bus's are ignored. ioredis is loaded when the bus is made, never by importing trellis.
 *
 * @example
 * ```ts
 * import { websockets } from 'trellis/plugins';
 * import { redisBus } from 'trellis/websocket';
 *
 * const plugin = websockets({ gateways: [TaskFeed], bus: redisBus(process.env.REDIS_URL!) });
 * ```
 */
export function redisBus(options: string | RedisBusOptions): RoomBus {
  const { url, prefix = 'trellis', logger } = typeof options === 'string' ? { url: options } : options;
  const channel = `${prefix}:rooms`;
  const origin = randomBytes(9).toString('base64url');
  const publisher = connectRedis(url, { name: 'rooms', logger });
  // Subscribes again itself on each 'ready' (one mechanism, whether the first connection or a reconnection).
  const subscriber = connectRedis(url, { name: 'rooms-subscriber', redis: { autoResubscribe: false } });
  const delivers: Array<(room: string, payload: string) => void> = [];
  const deliver = (room: string, payload: string) => {
    for (const subscribed of delivers) subscribed(room, payload);
  };
  const drops = droppedCounter(logger, channel);
  let waiting: string[] | undefined = [];
  let closed = false;

  const send = (envelope: string) => {
    if (publisher.status !== 'ready') return drops.add();
    publisher.publish(channel, envelope).catch(() => drops.add());
  };
  publisher.on('ready', () => {
    drops.recovered();
    for (const envelope of waiting?.splice(0) ?? []) send(envelope);
    waiting = undefined;
  });
  // A SUBSCRIBE that failed on a live connection (a command timeout on a busy server) is tried again a second later.
  const subscribe = () => {
    if (closed || subscriber.status !== 'ready') return;
    subscriber.subscribe(channel).catch((error: Error) => {
      logger?.warn({ channel, err: error }, 'redis rooms: subscribe failed; trying again');
      setTimeout(subscribe, 1_000).unref();
    });
  };
  subscriber.on('ready', subscribe);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel || closed) return;
    const parsed = openEnvelope(message);
    if (parsed && parsed.origin !== origin) deliver(parsed.room, parsed.payload);
  });

  return {
    publish(room, payload) {
      if (closed) return;
      deliver(room, payload);
      const envelope = sealEnvelope(origin, room, payload);
      if (!waiting) send(envelope);
      else if (waiting.length < WAITING_MAX) waiting.push(envelope);
      else drops.add();
    },
    subscribe(subscribed) {
      delivers.push(subscribed);
    },
    async close() {
      if (closed) return;
      closed = true;
      delivers.length = 0;
      await Promise.all([publisher, subscriber].map(release));
    },
  };
}

// The first line names the sender and the room (JSON, so a room may hold any character); the rest is the payload as
// it was published, never parsed or copied into another string by the bus.
function sealEnvelope(origin: string, room: string, payload: string): string {
  return `${JSON.stringify([origin, room])}\n${payload}`;
}

function openEnvelope(message: string): { origin: string; room: string; payload: string } | undefined {
  const end = message.indexOf('\n');
  if (end < 0) return undefined;
  try {
    const head: unknown = JSON.parse(message.slice(0, end));
    if (!Array.isArray(head) || head.length !== 2 || typeof head[0] !== 'string' || typeof head[1] !== 'string') return undefined;
    return { origin: head[0], room: head[1], payload: message.slice(end + 1) };
  } catch {
    return undefined;
  }
}

// Counts what an outage drops: one line at the first drop, one with the total when the publisher is back.
function droppedCounter(logger: Logger | undefined, channel: string) {
  let count = 0;
  return {
    add() {
      if (count++ === 0) logger?.warn({ channel }, 'redis rooms: broadcasts reach this process\'s clients only, until redis is back');
    },
    recovered() {
      if (count === 0) return;
      logger?.info({ channel, dropped: count }, 'redis rooms: redis is back; broadcasts the other processes missed meanwhile');
      count = 0;
    },
  };
}

async function release(client: Redis): Promise<void> {
  if (client.status !== 'ready') return client.disconnect();
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
