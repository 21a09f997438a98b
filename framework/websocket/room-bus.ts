/**
 * How `Rooms.broadcast` reaches the clients of every process: a broadcast is published on the bus as the room's
 * name and the message already serialized, and every process (this one included) subscribed to the bus delivers it
 * to its own clients in that room. The in-memory bus ({@link memoryBus}) serves one process; `redisBus(url)` (Redis
 * pub/sub) serves every worker and instance sharing that Redis.
 *
 * @example
 * ```ts
 * import type { RoomBus } from 'trellis/websocket';
 *
 * const bus: RoomBus = memoryBus();
 * bus.subscribe((room, payload) => console.log(room, payload));
 * bus.publish('tasks', '{"event":"created"}');
 * ```
 */
export interface RoomBus {
  /** Sends `payload` (a serialized message) to every subscriber, in every process sharing the bus. */
  publish(room: string, payload: string): void;
  /** Registers the function that delivers what is published (by any process) to this process's clients. */
  subscribe(deliver: (room: string, payload: string) => void): void;
  /** Stops delivering and releases the bus's connections. */
  close(): Promise<void>;
}

/**
 * A {@link RoomBus} within one process: what is published is delivered, synchronously, to this process's
 * subscribers. The default when `redis.url` is not set.
 *
 * @example
 * ```ts
 * import { websockets } from 'trellis/plugins';
 * import { memoryBus } from 'trellis/websocket';
 *
 * const plugin = websockets({ gateways: [TaskFeed], bus: memoryBus() });
 * ```
 */
export function memoryBus(): RoomBus {
  let subscribers: Array<(room: string, payload: string) => void> = [];
  return {
    publish(room, payload) {
      for (const deliver of subscribers) deliver(room, payload);
    },
    subscribe(deliver) {
      subscribers.push(deliver);
    },
    async close() {
      subscribers = [];
    },
  };
}
