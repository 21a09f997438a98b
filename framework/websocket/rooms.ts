import type { WebSocketClient } from './client';
import type { RoomBus } from './room-bus';

/**
 * The rooms of the WebSocket clients, provided by the `websockets` plug-in for injection: `broadcast` sends a
 * message to every client in a room, in every worker and instance sharing the plug-in's {@link RoomBus}
 * (in-process by default, Redis pub/sub with `redis.url`). A message is serialized once, as JSON.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class TaskService {
 *   constructor(private readonly rooms: Rooms) {}
 *   create(task: Task) {
 *     this.rooms.broadcast('tasks', { event: 'created', task });
 *   }
 * }
 * ```
 */
export class Rooms {
  readonly #members = new Map<string, Set<WebSocketClient>>();
  readonly #bus: RoomBus;

  /** @internal The plug-in makes the one instance of an app. */
  constructor(bus: RoomBus) {
    this.#bus = bus;
    bus.subscribe((room, payload) => this.#deliver(room, payload));
  }

  /**
   * Sends `message` (as JSON; a string as is) to every client in `room`, across processes. A value JSON cannot
   * encode (circular, a BigInt, `undefined`) throws here, to the caller, and reaches no one.
   */
  broadcast(room: string, message: unknown): void {
    const payload = typeof message === 'string' ? message : JSON.stringify(message);
    if (typeof payload !== 'string') throw new TypeError(`Rooms.broadcast('${room}', ...): the message has no JSON form (${typeof message})`);
    this.#bus.publish(room, payload);
  }

  /** The clients of this process in `room` (a copy). */
  clients(room: string): WebSocketClient[] {
    return [...(this.#members.get(room) ?? [])];
  }

  /** The rooms that have clients in this process. */
  get names(): string[] {
    return [...this.#members.keys()];
  }

  /** @internal */
  add(room: string, client: WebSocketClient): void {
    let members = this.#members.get(room);
    if (!members) this.#members.set(room, (members = new Set()));
    members.add(client);
  }

  /** @internal */
  remove(room: string, client: WebSocketClient): void {
    const members = this.#members.get(room);
    if (!members?.delete(client)) return;
    if (members.size === 0) this.#members.delete(room);
  }

  // What a bus delivers comes from any process (or a bus of the user's): only text reaches the clients.
  #deliver(room: string, payload: string): void {
    const members = this.#members.get(room);
    if (!members || typeof payload !== 'string') return;
    for (const client of [...members]) client.sendText(payload);
  }
}
