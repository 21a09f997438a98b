import { CorsSettings } from '../cors/settings';
import { TrellisError } from '../framework-error';
import { isMiddlewareClass, Middleware, type MiddlewareLike } from '../middleware';
import type { Plugin, PluginHost } from '../plugin/plugin';
import { clientAddress, type AddressOf, type TrustProxy } from '../rate-limit/client-address';
import { RedisSettings, redisUrlOf } from '../redis/settings';
import { serveAsyncAPI } from './asyncapi/route';
import type { GuardSource } from './dispatcher';
import { webSocketLimits, type WebSocketOptions } from './options';
import { originPolicy } from './origins';
import { memoryBus, type RoomBus } from './room-bus';
import { Rooms } from './rooms';
import { GatewayServer } from './server';
import { WebSocketSettings } from './settings';

/**
 * WebSocket gateways on `ws` as a plug-in named `websockets`: serves each gateway class as a `GET` route at its
 * path, so an upgrade goes through the app's middleware, the class's guards, scopes and rate limit as any request
 * does, then is checked for its `Origin` and a free connection slot (the gateways' own caps, apart from HTTP's);
 * messages go to `@OnMessage` handlers (with their own guards and scopes). It provides {@link Rooms} for
 * injection, pings every client and terminates those that stop answering, closes a client that lets more than
 * `maxBuffered` bytes wait (1013), and on graceful shutdown closes every connection with 1001. Options not given
 * come from config.yaml's `websockets:` section; broadcasts cross processes through Redis when `redis.url` is set.
 * `trellis run` registers it with the gateways of routers/. `ws` is loaded when the app starts, never by importing
 * trellis.
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
      const origins = originPolicy(options.origins ?? settings.origins ?? host.settings(CorsSettings).origins, 'origins');
      const addressOf = clientAddressOf(options.trustProxy ?? settings.trust_proxy ?? false);
      const server = new GatewayServer({ limits, rooms, logger: host.app.logger, addressOf, origins });
      const guardOf: GuardSource = (like, where) => messageGuard(host, like, where);
      for (const gateway of options.gateways ?? []) host.route(server.route(gateway, (cls) => host.instance(cls), guardOf));
      serveAsyncAPI(host, options.gateways ?? []);
      host.onStartup(() => server.start());
      host.onDrain(() => server.drain());
      host.onShutdown(async () => {
        server.shutdown();
        await bus.close();
      });
    },
  };
}

// A message's guard: an instance as it is, a Middleware class built by the app; an Express function cannot run on a message.
function messageGuard(host: PluginHost, like: MiddlewareLike, where: string): () => Middleware {
  if (like instanceof Middleware) return () => like;
  if (isMiddlewareClass(like)) return host.instance(like);
  throw new TrellisError('TRELLIS_ERR_GATEWAY', where, `@Use(${like.name || 'anonymous'}) is an Express function, which cannot guard a WebSocket message: use a Middleware class or instance`);
}

function clientAddressOf(trust: TrustProxy): AddressOf {
  try {
    return clientAddress(trust);
  } catch (error) {
    if (!(error instanceof TrellisError)) throw error;
    throw new TrellisError('TRELLIS_ERR_WEBSOCKET_OPTION', 'trustProxy', JSON.stringify(trust), String(error.details.reason ?? error.message));
  }
}

// Redis pub/sub when config.yaml names a server (redis.url), on websockets.room_prefix's channel; else this process alone.
function defaultBus(host: PluginHost, prefix: string | undefined): RoomBus {
  const url = redisUrlOf(host.settings(RedisSettings));
  if (url === undefined) return memoryBus();
  const { redisBus } = require('./redis-bus') as typeof import('./redis-bus');
  return redisBus({ url, prefix, logger: host.app.logger });
}
