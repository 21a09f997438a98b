import { IsInt, IsOptional, IsString, Length, Max, Min, ValidateBy } from 'class-validator';
import { Settings } from '../settings';

/**
 * config.yaml's `websockets:` section: the limits of every WebSocket connection. Each key is optional; a key the
 * section does not declare is refused at its line.
 *
 * @example
 * ```ts
 * // config.yaml
 * //   websockets:
 * //     max_payload: 65536
 * //     ping_interval: 30000
 * //     max_buffered: 1048576
 * //     max_connections: 1000
 * //     max_connections_per_client: 100
 * //     origins: [https://app.example.com]
 * //     room_prefix: tasks-api
 * const settings = host.settings(WebSocketSettings);
 * ```
 */
@Settings('websockets')
export class WebSocketSettings {
  /** Bytes one incoming message may hold; a bigger one closes the connection with 1009. */
  @IsOptional() @IsInt() @Min(1) @Max(2 ** 31 - 1) max_payload?: number;
  /** Milliseconds between pings; a peer that has not answered the previous one by the next is terminated. 0: no pings. */
  @IsOptional() @IsInt() @Min(0) @Max(2 ** 31 - 1) ping_interval?: number;
  /** Bytes that may wait to be sent to one client; a send beyond that closes it with 1013. */
  @IsOptional() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) max_buffered?: number;
  /** Most WebSocket connections of the process (every gateway); past it an upgrade is 503. Apart from `server.max_connections`. */
  @IsOptional() @IsInt() @Min(1) @Max(2 ** 31 - 1) max_connections?: number;
  /** Most WebSocket connections of one client address in the process; past it an upgrade is 429. */
  @IsOptional() @IsInt() @Min(1) @Max(2 ** 31 - 1) max_connections_per_client?: number;
  /** Whom `X-Forwarded-For` is believed from when counting a client's connections (as `rate_limit.trust_proxy`). */
  @IsOptional()
  @ValidateBy({ name: 'isTrustProxy', validator: { validate: isTrustProxy, defaultMessage: () => '$property must be true, false, a number of hops or a list of addresses and CIDRs' } })
  trust_proxy?: boolean | number | string[];
  /** The page origins browsers may connect from (as `cors.origins`, plus `'null'`); default `cors.origins`, else same-origin. */
  @IsOptional() @IsString({ each: true }) origins?: string | string[];
  /**
   * With `redis.url`: rooms are shared through the Redis channel `<room_prefix>:rooms`. Apps that share a Redis
   * server but not their clients take prefixes of their own. Default `trellis`.
   */
  @IsOptional() @IsString() @Length(1, 100) room_prefix?: string;
}

function isTrustProxy(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}
