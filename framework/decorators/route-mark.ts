import type { RouteInfo } from '../routing/route-info';

/**
 * A value a decorator marks on a router class or one of its handlers, read back for a route (internal): what
 * `@RateLimit`, `@Cors` and `@ETag` record for their plug-ins. The handler's mark wins over its class's, and a
 * class's over its base classes'. Marks are kept per class (never global): two apps in one process never collide.
 *
 * @example
 * ```ts
 * const limits = routeMark<RateLimitOptions>('RateLimit');
 * export const RateLimit = (options: RateLimitOptions) => limits.decorator(options);
 * limits.of(route); // the options for that route, or undefined
 * ```
 */
export interface RouteMark<T> {
  /** A decorator for a router class or a handler recording `value`. */
  decorator(value: T): ClassDecorator & MethodDecorator;
  /** The value for `route`: its handler's, else its router class's (nearest class first), else undefined. */
  of(route: Pick<RouteInfo, 'router' | 'handlerName'>): T | undefined;
  /** The value on a class itself (a gateway's, say), inherited from base classes. */
  onClass(cls: Function): T | undefined;
}

const CLASS = Symbol('class');

export function routeMark<T>(_name: string): RouteMark<T> {
  const marks = new WeakMap<Function, Map<string | symbol, T>>();
  const own = (cls: Function, key: string | symbol): T | undefined => marks.get(cls)?.get(key);
  const walk = (cls: Function, key: string | symbol): T | undefined => {
    for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
      const value = own(current, key);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  return {
    decorator: (value) =>
      ((target: object, handler?: string | symbol) => {
        const cls = (handler === undefined ? target : target.constructor) as Function;
        let map = marks.get(cls);
        if (!map) marks.set(cls, (map = new Map()));
        map.set(handler ?? CLASS, value);
      }) as ClassDecorator & MethodDecorator,
    of: (route) => walk(route.router, route.handlerName) ?? walk(route.router, CLASS),
    onClass: (cls) => walk(cls, CLASS),
  };
}
