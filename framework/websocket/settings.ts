import { IsInt, IsOptional, Max, Min } from 'class-validator';
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
}
