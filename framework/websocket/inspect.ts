import type { Class } from '../core/types';
import { metadataChain } from '../metadata';
import { isMiddlewareClass, Middleware, type MiddlewareLike } from '../middleware';
import { gatewayPathOf } from './gateway';
import { messageHandlersOf } from './on-message';

/** One WebSocket gateway class, as a tool shows it. */
export interface InspectedGateway {
  /** The path it serves (`/ws/rooms/{room}`), from its `gateway(path)` base. */
  path: string;
  /**
   * Its guards (`@Use` on the class and its base classes), in the order they run on the upgrade: each by its name
   * (an instance's class name, an Express function's name) and its `Middleware` class (undefined for a function).
   */
  guards: Array<{ name: string; class: Class<Middleware> | undefined }>;
  /** The events of its `@OnMessage` handlers, its base classes' included, in declaration order. */
  events: string[];
}

/**
 * What a gateway class declares: its path, its guards and its message events, read from the class (nothing is
 * built): what `trellis doctor` lists. Undefined for a class that does not extend `gateway(path)`.
 *
 * @example
 * ```ts
 * const { path, guards, events } = inspectGateway(TaskFeed)!;
 * console.log(path, guards.map((guard) => guard.name), events); // /ws/tasks [ 'RequireWriter' ] [ 'subscribe' ]
 * ```
 */
export function inspectGateway(cls: Class): InspectedGateway | undefined {
  const path = gatewayPathOf(cls);
  if (path === undefined) return undefined;
  // Base classes' guards first, as the gateway server composes them.
  const guards = [...metadataChain(cls)].reverse().flatMap((metadata) => metadata.middleware).map(guardName);
  return { path, guards, events: [...messageHandlersOf(cls).keys()] };
}

function guardName(like: MiddlewareLike): InspectedGateway['guards'][number] {
  if (like instanceof Middleware) return { name: like.constructor.name, class: like.constructor as Class<Middleware> };
  if (isMiddlewareClass(like)) return { name: like.name, class: like };
  return { name: like.name || 'anonymous', class: undefined };
}
