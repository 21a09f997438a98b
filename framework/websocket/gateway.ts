import 'reflect-metadata';
import type { Class } from '../core/types';
import type { OriginRule } from '../cors/options';
import type { WebSocketClient } from './client';

/**
 * Options of one gateway, over the `websockets` plug-in's.
 *
 * @example
 * ```ts
 * export class PartnerWidget extends gateway('/ws/widget', { origins: ['https://partner.example.org', 'null'] }) {}
 * ```
 */
export interface GatewayOptions {
  /** The page origins a browser may connect from (see `WebSocketOptions.origins`), for this gateway only. */
  origins?: OriginRule | readonly OriginRule[];
}

const PATHS = new WeakMap<Function, string>();
const OPTIONS = new WeakMap<Function, GatewayOptions>();

/**
 * The superclass of every WebSocket gateway (`class TaskFeed extends gateway('/ws/tasks')`): what the
 * `websockets` plug-in serves and `trellis run` discovers in routers/. Its hooks are optional.
 *
 * @example
 * ```ts
 * const gateways = exported.filter((value) => typeof value === 'function' && value.prototype instanceof Gateway);
 * ```
 */
export abstract class Gateway {
  /**
   * Runs once the connection is open (after the guards): join rooms, send a greeting, check what the guards could
   * not. The client's messages wait until it has returned (or its promise settled). What it throws closes the
   * connection: an `HTTPException` (a 403 of a check written here) with an error frame then close code 1008, anything
   * else with 1011, logged.
   */
  onConnect?(client: WebSocketClient): unknown;
  /** Runs once the connection has closed, with the close code the peer (or the server) gave. */
  onDisconnect?(client: WebSocketClient, code: number): unknown;
}

/**
 * Makes the base class of a WebSocket gateway served at `path`, which may hold `{name}` parameters as a
 * router's path does (`client.params.name`). The gateway is a `GET` route of the app: the upgrade goes through
 * the app's middleware, then the class's `@Use(...)` guards with its `@Scopes(...)`, and its `@RateLimit`; one
 * that answers (401, 403, 429) refuses the connection with that response. Handlers are methods marked
 * `@OnMessage(event)`; `@Use` and `@Scopes` on one run on each of its messages. A plain `GET` (no upgrade) is 426.
 *
 * @example
 * ```ts
 * import { Injectable, Use } from 'trellis';
 * import { gateway, OnMessage, Rooms, type WebSocketClient } from 'trellis/websocket';
 *
 * @Injectable()
 * @Use(RequireWriter)
 * export class TaskFeed extends gateway('/ws/tasks') {
 *   constructor(private readonly rooms: Rooms) { super(); }
 *   onConnect(client: WebSocketClient) { client.join('tasks'); }
 *   @OnMessage('ping') ping() { return { event: 'pong' }; }
 * }
 * ```
 */
export function gateway(path: string, options: GatewayOptions = {}): abstract new () => Gateway {
  abstract class WebSocketGateway extends Gateway {}
  PATHS.set(WebSocketGateway, path);
  OPTIONS.set(WebSocketGateway, options);
  return WebSocketGateway;
}

/**
 * Whether `value` is a gateway class (extends `gateway(...)`): what project discovery registers.
 *
 * @example
 * ```ts
 * isGatewayClass(TaskFeed); // true
 * isGatewayClass(TaskRouter); // false
 * ```
 */
export function isGatewayClass(value: unknown): value is Class<Gateway> {
  return typeof value === 'function' && value.prototype instanceof Gateway;
}

/** The path a gateway class serves (its nearest `gateway(path)` base), or undefined for any other class. */
export function gatewayPathOf(cls: Function): string | undefined {
  return nearest(cls, PATHS);
}

/** The options given with a gateway class's path (`gateway(path, options)`). */
export function gatewayOptionsOf(cls: Function): GatewayOptions {
  return nearest(cls, OPTIONS) ?? {};
}

function nearest<T>(cls: Function, map: WeakMap<Function, T>): T | undefined {
  for (let current: unknown = cls; typeof current === 'function' && current !== Gateway; current = Object.getPrototypeOf(current)) {
    const value = map.get(current as Function);
    if (value !== undefined) return value;
  }
  return undefined;
}
