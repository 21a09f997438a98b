import { IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateBy } from 'class-validator';
import { Settings } from '../settings';
import { clientAddress } from './client-address';
import { isPrefixLength } from './ipv6-subnet';
import { windowMs } from './window';

const isWindow = (value: unknown) => {
  try {
    windowMs(value);
    return true;
  } catch {
    return false;
  }
};

const isTrustProxy = (value: unknown) => {
  try {
    clientAddress(value as never);
    return typeof value === 'boolean' || typeof value === 'number' || Array.isArray(value);
  } catch {
    return false;
  }
};

/**
 * config.yaml's `rate_limit:` section, read by `rateLimit()` with no options (and so by `trellis run`). The Redis
 * server is the `redis:` section's `url` ({@link RedisSettings}).
 *
 * @example
 * ```ts
 * // config.yaml
 * //   rate_limit:
 * //     limit: 100
 * //     window: 1m
 * //     store: redis
 * //     on_store_error: open
 * //     trust_proxy: [10.0.0.0/8]
 * //     ipv6_subnet: 64
 * const settings = host.settings(RateLimitSettings); // settings.limit === 100
 * ```
 */
@Settings('rate_limit')
export class RateLimitSettings {
  /** Requests per client per window on every route but the built-in ones (docs, health probes, metrics, static files). */
  @IsOptional() @IsInt() @Min(1) limit = 100;
  /** `30s`, `1m`, `1h`, or milliseconds. */
  @IsOptional()
  @ValidateBy({ name: 'isWindow', validator: { validate: isWindow, defaultMessage: () => '$property must be a window from 1s to 7d: 30s, 1m, 1h or a number of milliseconds' } })
  window: string | number = '1m';
  /** `memory` (each process counts alone), `redis` (every worker and instance shares, at `redis.url`), or `auto` (redis when `redis.url` is set). */
  @IsOptional() @IsIn(['memory', 'redis', 'auto']) store: 'memory' | 'redis' | 'auto' = 'memory';
  /** When the store cannot answer: `open` lets requests through uncounted, `closed` answers 503. */
  @IsOptional() @IsIn(['open', 'closed']) on_store_error: 'open' | 'closed' = 'open';
  /** Whom `X-Forwarded-For` is believed from: false, true, a number of proxy hops, or a list of addresses and CIDRs. */
  @IsOptional()
  @ValidateBy({ name: 'isTrustProxy', validator: { validate: isTrustProxy, defaultMessage: () => '$property must be false, true, a number of proxy hops, or a list of addresses and CIDRs (10.0.0.0/8)' } })
  trust_proxy: boolean | number | string[] = false;
  /** IPv6 clients are counted per network of this prefix length (1 to 128); `false` or 128: per address. */
  @IsOptional()
  @ValidateBy({ name: 'isIpv6Subnet', validator: { validate: isPrefixLength, defaultMessage: () => '$property must be a prefix length from 1 to 128, or false' } })
  ipv6_subnet: number | false = 56;
  /** `false`: only routes with `@RateLimit(...)` are limited. */
  @IsOptional() @IsBoolean() global = true;
  /** Prefix of the Redis keys (`trellis:rl:`): one per app sharing a Redis. */
  @IsOptional() @IsString() @MaxLength(100) prefix = 'trellis:rl:';
}
