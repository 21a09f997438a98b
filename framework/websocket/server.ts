import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Class } from '../core/types';
import type { Logger } from '../core/logger';
import { isThenable } from '../core/thenable';
import { TrellisError } from '../framework-error';
import { metadataChain } from '../metadata';
import { isMiddlewareClass, Middleware, type MiddlewareLike } from '../middleware';
import type { Request } from '../request';
import { requestId } from '../request-id';
import { pathParams } from '../routing/path';
import { RouteTable } from '../routing/route-table';
import { writeSocketError } from '../write';
import { WebSocketClient, type ClientHost } from './client';
import { MessageDispatcher } from './dispatcher';
import { gatewayPathOf, isGatewayClass, type Gateway } from './gateway';
import type { WebSocketLimits } from './options';
import type { Rooms } from './rooms';
import { guardCheck, isHandshake, upgradeContext, upgradeTarget, type GuardOutcome } from './upgrade';
import type { RequestContext } from '../request';

/** The close code and reason every client gets when the app drains (RFC 6455 "Going Away"). */
export const SHUTDOWN_CODE = 1001;

/** How long a draining app waits for a client to answer its close frame before it cuts the connection. */
export const CLOSE_WAIT_MS = 2_000;
const SHUTDOWN_REASON = 'server shutting down';

/** What the plug-in builds of one gateway class: the instance, its guards, compiled once the app has started. */
interface Entry {
  cls: Class<Gateway>;
  path: string;
  instance: () => Gateway;
  guards: Array<() => Middleware>;
  dispatcher: MessageDispatcher;
  check?: (req: IncomingMessage, socket: Duplex, path: string, search: string, context: RequestContext) => Promise<GuardOutcome>;
}

/**
 * The WebSocket side of an app: its gateways by path, the open connections, the heartbeat. Takes the upgrade
 * requests of its gateways' paths (the others go on to the app's 404), runs their guards, upgrades with `ws`, and
 * turns each client's messages into handler calls.
 */
export class GatewayServer implements ClientHost {
  readonly #table = new RouteTable<Entry>();
  readonly #entries: Entry[] = [];
  readonly #clients = new Set<WebSocketClient>();
  readonly #alive = new WeakSet<WebSocketClient>();
  readonly #limits: WebSocketLimits;
  readonly #rooms: Rooms;
  readonly #logger: Logger;
  readonly #context: RequestContext;
  #wss: WebSocketServer | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #draining = false;

  constructor(limits: WebSocketLimits, rooms: Rooms, logger: Logger) {
    this.#limits = limits;
    this.#rooms = rooms;
    this.#logger = logger;
    this.#context = upgradeContext(logger);
  }

  get maxBuffered(): number {
    return this.#limits.maxBuffered;
  }

  /** The clients connected now. */
  get clients(): ReadonlySet<WebSocketClient> {
    return this.#clients;
  }

  /** Adds a gateway: `build` gives what the app built of a class (the gateway, its guard classes) once started. */
  add(cls: unknown, build: <T>(cls: Class<T>) => () => T): void {
    if (!isGatewayClass(cls)) throw new TrellisError('TRELLIS_ERR_GATEWAY', describe(cls), "it does not extend gateway('/path')");
    const path = gatewayPathOf(cls)!;
    if (!path.startsWith('/')) throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `its path ${JSON.stringify(path)} does not start with /`);
    pathParams(path);
    const guards = [...metadataChain(cls)].reverse().flatMap((metadata) => metadata.middleware).map((like) => guardOf(cls, like, build));
    const entry: Entry = { cls, path, instance: build(cls), guards, dispatcher: new MessageDispatcher(cls, this.#logger) };
    this.#table.add('GET', path, entry, cls.name);
    this.#entries.push(entry);
  }

  join(room: string, client: WebSocketClient): void {
    this.#rooms.add(room, client);
  }

  leave(room: string, client: WebSocketClient): void {
    this.#rooms.remove(room, client);
  }

  /** Once the app has started: the `ws` server, the guards, the heartbeat. */
  start(): void {
    const { WebSocketServer: Server } = require('ws') as typeof import('ws');
    this.#wss = new Server({ noServer: true, maxPayload: this.#limits.maxPayload, clientTracking: false });
    for (const entry of this.#entries) entry.check = guardCheck(entry.guards.map((guard) => guard()), this.#logger);
    if (this.#limits.pingInterval > 0) {
      this.#heartbeat = setInterval(() => this.#beat(), this.#limits.pingInterval);
      this.#heartbeat.unref();
    }
  }

  /** The plug-in's `host.upgrade` handler. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const target = upgradeTarget(req);
    const match = target && this.#table.find('GET', target.path);
    if (!target || !match) return false;
    const wss = this.#wss;
    if (!wss || this.#draining) {
      writeSocketError(socket, 503, requestId(undefined));
      socket.destroy();
      return true;
    }
    if (!isHandshake(req)) {
      wss.handleUpgrade(req, socket, head, (ws) => ws.terminate()); // ws answers 400
      return true;
    }
    this.#accept(wss, match.route, match.params, req, socket, head, target).catch((error: unknown) => {
      this.#logger.error({ err: error, gateway: match.route.cls.name }, 'a WebSocket upgrade failed');
      socket.destroy();
    });
    return true;
  };

  /**
   * Closes every connection with 1001 and refuses new ones (503): the app is draining. A client that has not
   * answered the close frame within {@link CLOSE_WAIT_MS} is terminated: `ws` would wait 30 s for it, and the
   * server's graceful close waits for every socket.
   */
  drain(): void {
    this.#draining = true;
    const closing = [...this.#clients];
    for (const client of closing) client.close(SHUTDOWN_CODE, SHUTDOWN_REASON);
    if (closing.length) setTimeout(() => closing.forEach((client) => client.socket.terminate()), CLOSE_WAIT_MS).unref();
  }

  /** Ends what is left: connections that did not close, the heartbeat, the `ws` server. */
  shutdown(): void {
    this.#draining = true;
    clearInterval(this.#heartbeat);
    for (const client of this.#clients) client.socket.terminate();
    this.#wss?.close();
  }

  async #accept(
    wss: WebSocketServer,
    entry: Entry,
    params: Record<string, string | undefined>,
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    target: { path: string; search: string },
  ): Promise<void> {
    const outcome = await entry.check!(req, socket, target.path, target.search, this.#context);
    if (!outcome.passed) return;
    outcome.request.params = params;
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => this.#connect(entry, ws, outcome.request, params));
  }

  #connect(entry: Entry, ws: WebSocket, request: Request, params: Record<string, string | undefined>): void {
    const client = new WebSocketClient(ws, request, params, this);
    const gateway = entry.instance();
    this.#clients.add(client);
    this.#alive.add(client);
    ws.on('pong', () => this.#alive.add(client));
    // ws reports protocol errors (a frame over maxPayload: 1009, an invalid one: 1002) and closes; nothing to crash on.
    ws.on('error', (error) => this.#logger.debug({ err: error, gateway: entry.cls.name, client: client.id }, 'WebSocket protocol error'));
    ws.on('message', (data, isBinary) => entry.dispatcher.dispatch(gateway, client, data as Buffer, isBinary));
    ws.on('close', (code) => {
      this.#clients.delete(client);
      client.leaveAll();
      this.#hook(entry, client, () => gateway.onDisconnect?.(client, code), 'onDisconnect', false);
    });
    if (this.#draining) return client.close(SHUTDOWN_CODE, SHUTDOWN_REASON);
    this.#hook(entry, client, () => gateway.onConnect?.(client), 'onConnect', true);
  }

  // A gateway hook: what it throws or rejects with is logged, and (while the client is there) sent as an error frame.
  #hook(entry: Entry, client: WebSocketClient, run: () => unknown, name: string, tell: boolean): void {
    const fail = (error: unknown) => {
      if (tell) entry.dispatcher.fail(client, error, name);
      else this.#logger.error({ err: error, gateway: entry.cls.name, client: client.id }, `a WebSocket ${name} hook failed`);
    };
    try {
      const result = run();
      if (isThenable(result)) Promise.resolve(result).catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  // Every client answered the previous ping, or is terminated; the others get the next one.
  #beat(): void {
    for (const client of this.#clients) {
      if (!this.#alive.has(client)) {
        client.socket.terminate();
        continue;
      }
      this.#alive.delete(client);
      client.socket.ping();
    }
  }
}

function guardOf(cls: Class, like: MiddlewareLike, build: <T>(cls: Class<T>) => () => T): () => Middleware {
  if (like instanceof Middleware) return () => like;
  if (isMiddlewareClass(like)) return build(like);
  throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `@Use(${like.name || 'anonymous'}) is an Express function, which cannot guard an upgrade: use a Middleware class or instance`);
}

function describe(value: unknown): string {
  if (typeof value === 'function') return value.name || 'anonymous class';
  return String(value);
}
