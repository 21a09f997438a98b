import type { Redis } from 'ioredis';
import { TrellisError } from '../framework-error';
import { checkRedisUrl, connectRedis, redisReady } from '../redis/connect';
import type { RateLimitHit, RateLimitStore } from './store';

/** Where {@link redisStore} counts: a URL (the store opens and closes its connection) or a client of yours. */
export interface RedisStoreOptions {
  /** `redis://host:6379/0`: the store connects when the app starts and quits when it stops. */
  url?: string;
  /** An ioredis client you opened (and close): give it `enableOfflineQueue: false` or a `commandTimeout`, so that requests never wait for a Redis that is gone. */
  client?: Redis;
  /** Prefix of the store's keys. `trellis:rl:` by default: give each app sharing a Redis its own. */
  prefix?: string;
}

// One round trip per hit: the count and the window's end in one script, the expiry set with the first hit only.
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type WithHit = Redis & { trellisRateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * A store counting in Redis, shared by every worker and instance that uses the same Redis and `prefix`: each hit
 * is one `EVALSHA` of a script that increments the key and sets its expiry on the first hit of a window (fixed
 * windows, counted exactly however many processes share them). Keys are `prefix` and the limiter's bounded key. A
 * Redis that cannot answer (down, unreachable, slower than the 1 s command timeout) fails the hit at once: the
 * limit then lets requests through or answers 503, as `onStoreError` says.
 *
 * @example
 * ```ts
 * import { rateLimit, redisStore } from 'trellis/plugins';
 *
 * app.register(rateLimit({ limit: 100, window: '1m', store: redisStore({ url: process.env.REDIS_URL, prefix: 'tasks:rl:' }) }));
 * ```
 */
export function redisStore(options: RedisStoreOptions): RateLimitStore {
  const prefix = options.prefix ?? 'trellis:rl:';
  if (typeof prefix !== 'string' || prefix.length > 100) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'prefix', 'a string of at most 100 characters is expected');
  if (!options.client === !options.url) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'redisStore', 'give either url or client');
  if (options.url !== undefined) checkRedisUrl(options.url);
  let client = options.client as WithHit | undefined;
  const own = !options.client;

  const withScript = (redis: Redis): WithHit => {
    if (typeof (redis as unknown as Partial<WithHit>).trellisRateLimitHit !== 'function') redis.defineCommand('trellisRateLimitHit', { numberOfKeys: 1, lua: HIT });
    return redis as unknown as WithHit;
  };
  if (client) withScript(client);

  return {
    async start() {
      if (!own) return;
      client = withScript(connectRedis(options.url!, { name: 'rate-limit' }));
      await redisReady(client, 2_000);
    },
    hit(key: string, windowMs: number): Promise<RateLimitHit> {
      if (!client) return Promise.reject(new Error('the Redis rate limit store has not started'));
      return client.trellisRateLimitHit(prefix + key, windowMs).then(([count, resetMs]) => ({ count, resetMs }));
    },
    async close() {
      if (!own || !client) return;
      const closing = client;
      client = undefined;
      await closing.quit().catch(() => closing.disconnect());
    },
  };
}
