import { IsOptional, IsString, Matches } from 'class-validator';
import { Settings } from '../settings';

/**
 * config.yaml's `redis:` section, shared by the features that keep state in Redis (the rate limit store, the
 * WebSocket rooms): `url` names the server; empty or absent means no Redis (memory stores, in-process rooms).
 *
 * @example
 * ```ts
 * // config.yaml
 * //   redis:
 * //     url: ${REDIS_URL:-}
 * const redis = host.settings(RedisSettings);
 * if (redis.url) connectRedis(redis.url);
 * ```
 */
@Settings('redis')
export class RedisSettings {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://...`; empty: no Redis. */
  @IsOptional() @IsString() @Matches(/^$|^rediss?:\/\/\S+$/, { message: 'redis.url must be a redis:// or rediss:// URL, or empty' }) url?: string;
}

/** The Redis URL of a `redis:` section, or undefined when it names none. */
export function redisUrlOf(settings: RedisSettings): string | undefined {
  return settings.url ? settings.url : undefined;
}
