import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Settings } from '../settings';

/**
 * config.yaml's `websockets:` section: the limits of every WebSocket connection. Each key is optional.
 *
 * @example
 * ```ts
 * // config.yaml
 * //   websockets:
 * //     max_payload: 65536
 * //     ping_interval: 30000
 * //     max_buffered: 1048576
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
  /**
   * With `redis.url`: rooms are shared through the Redis channel `<room_prefix>:rooms`. Apps that share a Redis
   * server but not their clients take prefixes of their own. Default `trellis`.
   */
  @IsOptional() @IsString() @Length(1, 100) room_prefix?: string;
}
