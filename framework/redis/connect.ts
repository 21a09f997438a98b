import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger';
import { TrellisError } from '../framework-error';

/** How {@link connectRedis} connects: ioredis options over its defaults, and who hears about outages. */
export interface ConnectRedisOptions {
  /** ioredis options, given over the defaults below (a subscriber connection may want `enableOfflineQueue: true`). */
  redis?: RedisOptions;
  /** Logs one `warn` line when the connection is lost (or never made) and one `info` line when it is back: one per outage, never per command. */
  logger?: Logger;
  /** Names the connection in those lines (`rate-limit`, `rooms`). */
  name?: string;
}

/**
 * The defaults: a command never waits for a connection that is not there (no offline queue, one attempt) or for a
 * server that stopped answering (`commandTimeout`), so a request never hangs on Redis; the client reconnects on its
 * own, backing off to 2 seconds between attempts.
 */
export const REDIS_DEFAULTS: Readonly<RedisOptions> = Object.freeze({
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1_000,
  connectTimeout: 2_000,
  retryStrategy: (times: number) => Math.min(50 * 2 ** times, 2_000),
});

const URL_SCHEME = /^rediss?:\/\//;

/**
 * An ioredis client for `url` (`redis://host:6379/0`, `rediss://` for TLS), connecting at once, with the defaults of
 * {@link REDIS_DEFAULTS}. ioredis is loaded here, when a plug-in first needs Redis, never by importing trellis. Its
 * `error` events are heard (an unheard one would end the process); with a `logger`, an outage is logged once when it
 * starts and once when it ends. Close it with `client.quit()` (or `disconnect()`).
 *
 * @example
 * ```ts
 * import { connectRedis } from 'trellis/plugins';
 *
 * const redis = connectRedis('redis://127.0.0.1:6379', { name: 'rooms', redis: { enableOfflineQueue: true } });
 * await redis.set('greeting', 'hello');
 * await redis.quit();
 * ```
 */
export function connectRedis(url: string, options: ConnectRedisOptions = {}): Redis {
  checkRedisUrl(url);
  const { default: IORedis } = require('ioredis') as typeof import('ioredis');
  const client = new IORedis(url, { ...REDIS_DEFAULTS, ...options.redis });
  watchOutages(client, redactUrl(url), options);
  return client;
}

/** Throws `TRELLIS_ERR_REDIS_URL` unless `url` is a `redis://` or `rediss://` URL (without connecting). */
export function checkRedisUrl(url: unknown): asserts url is string {
  if (typeof url !== 'string' || !URL_SCHEME.test(url)) throw new TrellisError('TRELLIS_ERR_REDIS_URL', redactUrl(String(url)));
}

/**
 * Resolves `true` once `client` is ready (at once when it is), `false` when it is not within `timeoutMs`: what a
 * plug-in awaits at startup so that its first commands do not fail while the connection is still being made (with
 * no offline queue, a command sent before `ready` fails at once). Never rejects.
 *
 * @example
 * ```ts
 * if (!(await redisReady(redis, 2_000))) logger.warn('redis not reachable yet; carrying on without it');
 * ```
 */
export function redisReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('end', onEnd);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref?.();
    client.on('ready', onReady);
    client.on('end', onEnd);
  });
}

/** `url` without its password, for log lines and errors: `redis://:secret@host` is `redis://:***@host`. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@]*@/i, '$1***@');
}

function watchOutages(client: Redis, address: string, { logger, name = 'redis' }: ConnectRedisOptions): void {
  let down = false;
  let ended = false;
  const lost = (reason: string) => {
    if (down || ended) return;
    down = true;
    logger?.warn({ redis: address, connection: name, reason }, 'redis unavailable');
  };
  client.on('error', (error: Error) => lost(error.message));
  // 'reconnecting', not 'close': a connection closed by quit() or disconnect() does not reconnect, and is no outage.
  client.on('reconnecting', () => lost('connection lost'));
  client.on('end', () => (ended = true));
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info({ redis: address, connection: name }, 'redis available again');
  });
}
