import type { WebSocket, WebSocketServer } from 'ws';
import type { Class } from '../core/types';
import type { Logger } from '../core/logger';
import { isThenable } from '../core/thenable';
import type { PendingUpgrade } from '../core/upgrade';
import { scopesOf } from '../decorators/scopes';
import { errorResponse } from '../error-envelope';
import { TrellisError } from '../framework-error';
import { HTTPException } from '../http-exception';
import { metadataChain } from '../metadata';
import { isMiddlewareClass, Middleware, type MiddlewareLike } from '../middleware';
import type { AddressOf } from '../rate-limit/client-address';
import type { Request } from '../request';
import { Response } from '../response';
import type { EndpointRoute } from '../routing/endpoint';
import { pathParams } from '../routing/path';
import { HTTP_SLOT, UPGRADE } from '../symbols';
import { WebSocketClient, type ClientHost } from './client';
import { MessageDispatcher, type GuardSource } from './dispatcher';
import { errorFrame } from './frames';
import { gatewayOptionsOf, gatewayPathOf, isGatewayClass, type Gateway } from './gateway';
import type { WebSocketLimits } from './options';
import { originPolicy, type OriginPolicy } from './origins';
import type { Rooms } from './rooms';
import { ConnectionSlots } from './slots';
import { handshakeRefusal } from './upgrade';

/** The close code and reason every client gets when the app drains (RFC 6455 "Going Away"). */
export const SHUTDOWN_CODE = 1001;

/** How long a draining app waits for a client to answer its close frame before it cuts the connection. */
export const CLOSE_WAIT_MS = 2_000;
const SHUTDOWN_REASON = 'server shutting down';

/** The close codes of an `onConnect` that throws: an `HTTPException` (a refusal) and anything else. */
export const REFUSED_CODE = 1008;
export const FAILED_CODE = 1011;

/** What the plug-in builds of one gateway class: the instance and its message dispatcher. */
interface Entry {
  cls: Class<Gateway>;
  instance: () => Gateway;
  dispatcher: MessageDispatcher;
  origins: OriginPolicy;
}

/** What the plug-in gives the gateway server: its limits, rooms, logger, and how it reads a client's address. */
export interface GatewayServerOptions {
  limits: WebSocketLimits;
  rooms: Rooms;
  logger: Logger;
  addressOf: AddressOf;
  /** The origins of every gateway without its own (see `WebSocketOptions.origins`). */
  origins: OriginPolicy;
}

/**
 * The WebSocket side of an app. Each gateway is a `GET` route of the app ({@link GatewayServer.route}), so an
 * upgrade goes through the app's middleware and the gateway's guards, scopes and rate limit like any request;
 * the route then checks what only an upgrade has (a valid handshake, an allowed `Origin`, a free connection
 * slot) and accepts it. Open connections are counted against the gateways' own caps, not HTTP's; their messages
 * go to the gateway's `@OnMessage` handlers.
 */
export class GatewayServer implements ClientHost {
  readonly #clients = new Set<WebSocketClient>();
  readonly #alive = new WeakSet<WebSocketClient>();
  readonly #entries: Entry[] = [];
  readonly #limits: WebSocketLimits;
  readonly #rooms: Rooms;
  readonly #logger: Logger;
  readonly #addressOf: AddressOf;
  readonly #origins: OriginPolicy;
  readonly #slots: ConnectionSlots;
  #wss: WebSocketServer | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #draining = false;

  constructor(options: GatewayServerOptions) {
    this.#limits = options.limits;
    this.#rooms = options.rooms;
    this.#logger = options.logger;
    this.#addressOf = options.addressOf;
    this.#origins = options.origins;
    this.#slots = new ConnectionSlots(options.limits.maxConnections, options.limits.maxConnectionsPerClient);
  }

  get maxBuffered(): number {
    return this.#limits.maxBuffered;
  }

  /** The clients connected now. */
  get clients(): ReadonlySet<WebSocketClient> {
    return this.#clients;
  }

  /**
   * The route of a gateway class: `GET <path>`, with the class's `@Use` guards and `@Scopes`, whose handler takes
   * the upgrade. `build` gives what the app built of a class once started; `guardOf` a message guard.
   */
  route(cls: unknown, build: <T>(cls: Class<T>) => () => T, guardOf: GuardSource): EndpointRoute {
    if (!isGatewayClass(cls)) throw new TrellisError('TRELLIS_ERR_GATEWAY', describe(cls), "it does not extend gateway('/path')");
    const path = gatewayPathOf(cls)!;
    if (!path.startsWith('/')) throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `its path ${JSON.stringify(path)} does not start with /`);
    pathParams(path);
    const chain = metadataChain(cls);
    const guards = [...chain].reverse().flatMap((metadata) => metadata.middleware);
    for (const like of guards) refuseExpressFunction(cls, like);
    const { origins } = gatewayOptionsOf(cls);
    const entry: Entry = {
      cls,
      instance: build(cls),
      dispatcher: new MessageDispatcher(cls, this.#logger, guardOf),
      origins: origins === undefined ? this.#origins : originPolicy(origins, `${cls.name} origins`),
    };
    this.#entries.push(entry);
    return {
      method: 'GET',
      path,
      owner: cls,
      name: 'upgrade',
      handler: (request) => this.#admit(entry, request),
      middleware: guards,
      scopes: scopesOf(chain, UPGRADE_HANDLER),
      upgrade: true,
      userRoute: true,
      options: { summary: `WebSocket ${path}` },
    };
  }

  join(room: string, client: WebSocketClient): void {
    this.#rooms.add(room, client);
  }

  leave(room: string, client: WebSocketClient): void {
    this.#rooms.remove(room, client);
  }

  /** Once the app has started: the `ws` server, the message guards, the heartbeat. */
  start(): void {
    const { WebSocketServer: Server } = require('ws') as typeof import('ws');
    this.#wss = new Server({ noServer: true, maxPayload: this.#limits.maxPayload, clientTracking: false });
    for (const entry of this.#entries) entry.dispatcher.start();
    if (this.#limits.pingInterval > 0) {
      this.#heartbeat = setInterval(() => this.#beat(), this.#limits.pingInterval);
      this.#heartbeat.unref();
    }
  }

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

  // The gateway route's handler, once the guards let the request through: a plain GET is told to upgrade (426);
  // an upgrade is checked and accepted (101, which the listener turns into the handshake) or refused.
  #admit(entry: Entry, request: Request): Response {
    const upgrade = request[UPGRADE];
    if (!upgrade) return errorResponse(426, 'Upgrade Required: this is a WebSocket endpoint', { upgrade: 'websocket', connection: 'Upgrade' });
    const wss = this.#wss;
    if (!wss || this.#draining) return errorResponse(503, 'Service Unavailable', { 'retry-after': '5' });
    const req = request.raw;
    const refused = handshakeRefusal(req);
    if (refused) return refused;
    if (!entry.origins.allows(req)) return errorResponse(403, 'This page origin may not open a WebSocket here');
    const slot = this.#slots.take(this.#addressOf(req));
    if (slot === 'process') return errorResponse(503, 'Too many WebSocket connections', { 'retry-after': '5' });
    if (slot === 'client') return errorResponse(429, 'Too many WebSocket connections from this client', { 'retry-after': '5' });
    upgrade.socket.once('close', slot);
    upgrade.accept = () => wss.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) => this.#connect(entry, ws, request, upgrade));
    return new Response(undefined, { status: 101 });
  }

  #connect(entry: Entry, ws: WebSocket, request: Request, upgrade: PendingUpgrade): void {
    // From now on the socket counts against the gateways' caps, not HTTP's.
    (upgrade.socket as { [HTTP_SLOT]?: () => void })[HTTP_SLOT]?.();
    const client = new WebSocketClient(ws, request, request.params, this);
    const gateway = entry.instance();
    this.#clients.add(client);
    this.#alive.add(client);
    // Messages wait for onConnect: what arrives meanwhile (ws pauses reading; a few may be parsed already) is kept,
    // and dropped if it refuses the client (`null`).
    let waiting: Array<[Buffer | ArrayBuffer | Buffer[], boolean]> | undefined | null = [];
    ws.on('pong', () => this.#alive.add(client));
    // ws reports protocol errors (a frame over maxPayload: 1009, an invalid one: 1002) and closes; nothing to crash on.
    ws.on('error', (error) => this.#logger.debug({ err: error, gateway: entry.cls.name, client: client.id }, 'WebSocket protocol error'));
    ws.on('message', (data, isBinary) => {
      if (waiting) waiting.push([data, isBinary]);
      else if (waiting === undefined) this.#dispatch(entry, gateway, client, data, isBinary);
    });
    ws.on('close', (code) => {
      waiting = null;
      this.#clients.delete(client);
      client.leaveAll();
      this.#hook(entry, client, () => gateway.onDisconnect?.(client, code), 'onDisconnect', () => {});
    });
    if (this.#draining) return client.close(SHUTDOWN_CODE, SHUTDOWN_REASON);
    ws.pause();
    const ready = () => {
      const queued = waiting;
      if (!queued || !client.open) return;
      waiting = undefined;
      ws.resume();
      for (const [data, isBinary] of queued) this.#dispatch(entry, gateway, client, data, isBinary);
    };
    this.#hook(entry, client, () => gateway.onConnect?.(client), 'onConnect', ready, (error) => {
      waiting = null;
      this.#refuse(entry, client, error);
    });
  }

  // One message: the dispatcher answers every failure with an error frame; this catch is the last line.
  #dispatch(entry: Entry, gateway: Gateway, client: WebSocketClient, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    try {
      entry.dispatcher.dispatch(gateway, client, data, isBinary);
    } catch (error) {
      entry.dispatcher.fail(client, error, undefined);
    }
  }

  // An onConnect that threw: a refusal (HTTPException) is told in an error frame and closed 1008; anything else is
  // logged and closed 1011. Its messages are never dispatched.
  #refuse(entry: Entry, client: WebSocketClient, error: unknown): void {
    if (error instanceof HTTPException) {
      client.sendText(errorFrame(error));
      client.close(REFUSED_CODE, closeReason(error.message));
      return;
    }
    this.#log(entry, client, 'onConnect', error);
    client.close(FAILED_CODE, 'Internal Server Error');
  }

  // A gateway hook: `then` once it returned (or its promise resolved), `fail` with what it threw or rejected with.
  #hook(entry: Entry, client: WebSocketClient, run: () => unknown, name: string, then: () => void, fail?: (error: unknown) => void): void {
    const failed = fail ?? ((error: unknown) => this.#log(entry, client, name, error));
    let result: unknown;
    let pending: boolean;
    try {
      result = run();
      pending = isThenable(result);
    } catch (error) {
      return failed(error);
    }
    if (pending) Promise.resolve(result).then(then, failed);
    else then();
  }

  #log(entry: Entry, client: WebSocketClient, hook: string, error: unknown): void {
    try {
      this.#logger.error({ err: error, gateway: entry.cls.name, client: client.id, reqId: client.request.id }, `a WebSocket ${hook} hook failed`);
    } catch {
      // A logger that throws cannot end the connection either.
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

// The handler name a gateway's upgrade route has: never a method, so `scopesOf` gives the class's scopes alone.
const UPGRADE_HANDLER = Symbol('upgrade');

// A close frame's reason is at most 123 bytes of UTF-8.
function closeReason(message: string): string {
  const bytes = Buffer.from(message, 'utf8');
  return bytes.length <= 123 ? message : bytes.subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '') + '...';
}

function refuseExpressFunction(cls: Class, like: MiddlewareLike): void {
  if (!(like instanceof Middleware) && !isMiddlewareClass(like)) {
    throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `@Use(${like.name || 'anonymous'}) is an Express function, which cannot guard a WebSocket: use a Middleware class or instance`);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'function') return value.name || 'anonymous class';
  return String(value);
}
