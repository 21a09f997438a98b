import type { Class } from '../core/types';
import type { OriginRule } from '../cors/options';
import { TrellisError } from '../framework-error';
import type { TrustProxy } from '../rate-limit/client-address';
import type { Gateway } from './gateway';
import type { RoomBus } from './room-bus';
import type { WebSocketSettings } from './settings';

/**
 * Options of the `websockets` plug-in. Those not given come from config.yaml's `websockets:` section, then the
 * defaults.
 *
 * @example
 * ```ts
 * websockets({ gateways: [TaskFeed], maxPayload: 16 * 1024, pingInterval: 15_000, origins: ['https://app.example.com'] });
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
  /**
   * Most WebSocket connections of this process, every gateway together; an upgrade past it is answered 503. 1,000
   * by default. Apart from `server.max_connections`, which counts HTTP connections only: WebSockets never take
   * the slots HTTP requests and `/healthz` need.
   */
  maxConnections?: number;
  /** Most WebSocket connections of one client address in this process; an upgrade past it is answered 429. 100 by default. */
  maxConnectionsPerClient?: number;
  /** Whom `X-Forwarded-For` is believed from when counting a client's connections: as `rate_limit.trust_proxy`. `false` by default. */
  trustProxy?: TrustProxy;
  /**
   * The page origins a browser may open a connection from (`Origin` of the upgrade), as CORS origins are written
   * (`https://app.example.com`, `https://*.example.com`, `http://localhost:*`, `'*'`), plus `'null'` to allow
   * sandboxed pages. Default: config.yaml's `cors.origins` when set. A page of the app's own origin (the `Host` the
   * upgrade was sent to) always may; an upgrade without `Origin` (not a browser) is not checked; any other is 403.
   * `gateway(path, { origins })` overrides it for one gateway.
   */
  origins?: OriginRule | readonly OriginRule[];
  /** How `Rooms.broadcast` reaches other processes: `redisBus(url)` when config.yaml's `redis.url` is set, else in-process. */
  bus?: RoomBus;
}

/** {@link WebSocketOptions} with the section and the defaults applied. */
export interface WebSocketLimits {
  maxPayload: number;
  pingInterval: number;
  maxBuffered: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

const RULES: Record<string, string> = {
  maxPayload: 'a whole number of bytes from 1',
  pingInterval: 'whole milliseconds from 0',
  maxBuffered: 'a whole number of bytes from 1',
  maxConnections: 'a whole number of connections from 1',
  maxConnectionsPerClient: 'a whole number of connections from 1',
};

/** The limits of `options` over `section`, checked: each a whole number (`pingInterval` may be 0). */
export function webSocketLimits(options: WebSocketOptions, section: WebSocketSettings): WebSocketLimits {
  const limits = {
    maxPayload: options.maxPayload ?? section.max_payload ?? 65_536,
    pingInterval: options.pingInterval ?? section.ping_interval ?? 30_000,
    maxBuffered: options.maxBuffered ?? section.max_buffered ?? 1_048_576,
    maxConnections: options.maxConnections ?? section.max_connections ?? 1_000,
    maxConnectionsPerClient: options.maxConnectionsPerClient ?? section.max_connections_per_client ?? 100,
  };
  for (const [option, value] of Object.entries(limits)) {
    const least = option === 'pingInterval' ? 0 : 1;
    if (!(Number.isSafeInteger(value) && value >= least && value <= 2 ** 31 - 1)) throw new TrellisError('TRELLIS_ERR_WEBSOCKET_OPTION', option, value, RULES[option]);
  }
  return limits;
}
