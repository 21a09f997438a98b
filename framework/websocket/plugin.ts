import type { Plugin, PluginHost } from '../plugin/plugin';
import { RedisSettings, redisUrlOf } from '../redis/settings';
import { webSocketLimits, type WebSocketOptions } from './options';
import { memoryBus, type RoomBus } from './room-bus';
import { Rooms } from './rooms';
import { GatewayServer } from './server';
import { WebSocketSettings } from './settings';

/**
 * WebSocket gateways on `ws` as a plug-in named `websockets`: serves each gateway class at its path (guards on
 * the upgrade, messages to `@OnMessage` handlers), provides {@link Rooms} for injection, pings every client and
 * terminates those that stop answering, closes a client that lets more than `maxBuffered` bytes wait (1013), and
 * on graceful shutdown closes every connection with 1001. Options not given come from config.yaml's
 * `websockets:` section; broadcasts cross processes through Redis when `redis.url` is set. `trellis run`
 * registers it with the gateways of routers/. `ws` is loaded when the app starts, never by importing trellis.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { websockets } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(websockets({ gateways: [TaskFeed], pingInterval: 15_000 }));
 * await app.listen({ port: 8000 }); // ws://localhost:8000/ws/tasks
 * ```
 */
export function websockets(options: WebSocketOptions = {}): Plugin {
  return {
    name: 'websockets',
    register(host) {
      const settings = host.settings(WebSocketSettings);
      const limits = webSocketLimits(options, settings);
      const bus = options.bus ?? defaultBus(host, settings.room_prefix);
      const rooms = new Rooms(bus);
      host.provide({ provide: Rooms, useValue: rooms });
      const server = new GatewayServer(limits, rooms, host.app.logger);
      for (const gateway of options.gateways ?? []) server.add(gateway, (cls) => host.instance(cls));
      host.upgrade(server.upgrade);
      host.onStartup(() => server.start());
      host.onDrain(() => server.drain());
      host.onShutdown(async () => {
        server.shutdown();
        await bus.close();
      });
    },
  };
}

// Redis pub/sub when config.yaml names a server (redis.url), on websockets.room_prefix's channel; else this process alone.
function defaultBus(host: PluginHost, prefix: string | undefined): RoomBus {
  const url = redisUrlOf(host.settings(RedisSettings));
  if (url === undefined) return memoryBus();
  const { redisBus } = require('./redis-bus') as typeof import('./redis-bus');
  return redisBus({ url, prefix, logger: host.app.logger });
}
