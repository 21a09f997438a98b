import type { Class } from '../core/types';
import { TrellisError } from '../framework-error';
import type { Gateway } from './gateway';
import type { RoomBus } from './room-bus';
import type { WebSocketSettings } from './settings';

/**
 * Options of the `websockets` plug-in. Those not given come from config.yaml's `websockets:` section, then the
 * defaults.
 *
 * @example
 * ```ts
 * websockets({ gateways: [TaskFeed], maxPayload: 16 * 1024, pingInterval: 15_000 });
 * ```
 */
export interface WebSocketOptions {
  /** The gateway classes to serve (`trellis run` gives those it found in routers/). */
  gateways?: ReadonlyArray<Class<Gateway>>;
  /** Bytes one incoming message may hold; a bigger one closes the connection with 1009. 65,536 by default. */
  maxPayload?: number;
  /** Milliseconds between pings; a peer that missed the previous pong is terminated. 30,000 by default; 0 turns pings off. */
  pingInterval?: number;
  /** Bytes that may wait to be sent to one client before it is closed with 1013. 1,048,576 (1 MiB) by default. */
  maxBuffered?: number;
  /** How `Rooms.broadcast` reaches other processes: `redisBus(url)` when config.yaml's `redis.url` is set, else in-process. */
  bus?: RoomBus;
}

/** {@link WebSocketOptions} with the section and the defaults applied. */
export interface WebSocketLimits {
  maxPayload: number;
  pingInterval: number;
  maxBuffered: number;
}

/** The limits of `options` over `section`, checked: each a whole number (`pingInterval` may be 0). */
export function webSocketLimits(options: WebSocketOptions, section: WebSocketSettings): WebSocketLimits {
  const limits = {
    maxPayload: options.maxPayload ?? section.max_payload ?? 65_536,
    pingInterval: options.pingInterval ?? section.ping_interval ?? 30_000,
    maxBuffered: options.maxBuffered ?? section.max_buffered ?? 1_048_576,
  };
  for (const [option, value] of Object.entries(limits)) {
    const least = option === 'pingInterval' ? 0 : 1;
    if (!(Number.isSafeInteger(value) && value >= least && value <= 2 ** 31 - 1)) throw new TrellisError('TRELLIS_ERR_WEBSOCKET_OPTION', option, value);
  }
  return limits;
}
