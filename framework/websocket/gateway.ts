import 'reflect-metadata';
import type { Class } from '../core/types';
import type { WebSocketClient } from './client';

const PATHS = new WeakMap<Function, string>();

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
  /** Runs once the connection is open (after the guards): join rooms, send a greeting. What it throws is sent as an error frame. */
  onConnect?(client: WebSocketClient): unknown;
  /** Runs once the connection has closed, with the close code the peer (or the server) gave. */
  onDisconnect?(client: WebSocketClient, code: number): unknown;
}

/**
 * Makes the base class of a WebSocket gateway served at `path`, which may hold `{name}` parameters as a
 * router's path does (`client.params.name`). Guards go on the class with `@Use(...)`: they run on the upgrade
 * request, and one that answers (401, 403) refuses the connection with that response. Handlers are methods
 * marked `@OnMessage(event)`.
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
export function gateway(path: string): abstract new () => Gateway {
  abstract class WebSocketGateway extends Gateway {}
  PATHS.set(WebSocketGateway, path);
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
  for (let current: unknown = cls; typeof current === 'function' && current !== Gateway; current = Object.getPrototypeOf(current)) {
    const path = PATHS.get(current as Function);
    if (path !== undefined) return path;
  }
  return undefined;
}
