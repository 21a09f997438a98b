import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Request } from '../request';

/** What a {@link WebSocketClient} needs of the plug-in: room membership and the buffer bound. */
export interface ClientHost {
  join(room: string, client: WebSocketClient): void;
  leave(room: string, client: WebSocketClient): void;
  readonly maxBuffered: number;
}

/** The close code sent to a client whose unread data passed `maxBuffered` (RFC 6455 "Try Again Later"). */
export const SLOW_CLIENT_CODE = 1013;

/**
 * One open WebSocket connection, as a gateway's handlers see it: the path parameters, the upgrade request
 * (headers, `request.user` set by a guard), its rooms, and `send`. Messages go out as JSON. A client that
 * stops reading while more than `maxBuffered` bytes wait for it is closed with 1013 instead of buffering
 * without bound.
 *
 * @example
 * ```ts
 * onConnect(client: WebSocketClient) {
 *   client.join(`user:${client.request.user?.sub}`);
 *   client.send({ event: 'hello', data: { room: client.params.room } });
 * }
 * ```
 */
export class WebSocketClient {
  /** A random id, unique to this connection. */
  readonly id = randomUUID();
  /** The `{name}` parameters of the gateway's path, decoded. */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The upgrade request: its headers, query, and `user` as the gateway's guards left it. */
  readonly request: Request;
  /** The `ws` socket itself, for what this class does not cover (binary frames, `ping`). */
  readonly socket: WebSocket;
  readonly #rooms = new Set<string>();
  readonly #host: ClientHost;

  constructor(socket: WebSocket, request: Request, params: Record<string, string | undefined>, host: ClientHost) {
    this.socket = socket;
    this.request = request;
    this.params = params;
    this.#host = host;
  }

  /** The rooms this client is in. */
  get rooms(): ReadonlySet<string> {
    return this.#rooms;
  }

  /** Whether the connection is open (sends are dropped otherwise). */
  get open(): boolean {
    return this.socket.readyState === 1;
  }

  /**
   * Sends `message` as JSON text (a string as is); dropped when the connection is no longer open. A value JSON
   * cannot encode (circular, a BigInt, a function) throws here, to the caller.
   */
  send(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    if (typeof text !== 'string') throw new TypeError(`WebSocketClient.send: the message has no JSON form (${typeof message})`);
    this.sendText(text);
  }

  /** Sends already-serialized text: what `Rooms.broadcast` delivers, serialized once for every client. */
  sendText(text: string): void {
    if (!this.open) return;
    if (this.socket.bufferedAmount + Buffer.byteLength(text) > this.#host.maxBuffered) {
      this.close(SLOW_CLIENT_CODE, 'slow client');
      return;
    }
    this.socket.send(text);
  }

  /** Adds this client to `room` (`Rooms.broadcast(room, ...)` reaches it) until it leaves or disconnects. */
  join(room: string): void {
    if (!this.open || this.#rooms.has(room)) return;
    this.#rooms.add(room);
    this.#host.join(room, this);
  }

  /** Takes this client out of `room`. */
  leave(room: string): void {
    if (!this.#rooms.delete(room)) return;
    this.#host.leave(room, this);
  }

  /** Closes the connection with `code` (1000 by default) and a short `reason`. */
  close(code = 1000, reason?: string): void {
    if (this.socket.readyState >= 2) return;
    // The closing handshake reads the peer's close frame: a connection paused until onConnect returned reads again.
    if (this.socket.isPaused) this.socket.resume();
    this.socket.close(code, reason);
  }

  /** @internal Leaves every room (the connection closed). */
  leaveAll(): void {
    for (const room of [...this.#rooms]) this.leave(room);
  }
}
