import { ratePolicy, type RateLimitOptions, type RatePolicy } from '../rate-limit/policy';
import { routeMark } from './route-mark';

/** What `@RateLimit` recorded on a route: its limit (named for the route or router it was written on), or `false`. */
export type RateLimitMark = { readonly options: RateLimitOptions; readonly policy: (fallbackName: string) => RatePolicy } | false;

/** The `@RateLimit` marks, read by the `rateLimit()` plug-in (internal). */
export const rateLimitMarks = routeMark<RateLimitMark>('RateLimit');

// The router classes with a limit on themselves or on a handler: what turns the plug-in on under `trellis run`.
const limited = new WeakSet<Function>();

/**
 * Whether a router class (or a base class of it) has `@RateLimit({...})` on itself or a handler (internal: `trellis
 * run` registers the plug-in for such routers when config.yaml has no `rate_limit:` section).
 *
 * @example
 * ```ts
 * usesRateLimit(AdminRouter); // true when AdminRouter or one of its handlers carries @RateLimit({ limit: 60 })
 * ```
 */
export function usesRateLimit(cls: Function): boolean {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (limited.has(current)) return true;
  }
  return false;
}

/**
 * Gives a route (on a handler) or every route of a router (on its class) its own rate limit, over the global one of
 * the `rateLimit()` plug-in (config.yaml `rate_limit:`); `@RateLimit(false)` exempts it. The handler's mark wins over
 * its class's. It only records: the limit is counted by the `rateLimit()` plug-in, which must be registered (config.yaml
 * `rate_limit:` under `trellis run`). Options are checked here, where the class is defined
 * (`TRELLIS_ERR_RATE_LIMIT_OPTION`). A limit without `key` counts by client address before the route's guards, so a
 * client hammering with bad tokens is limited too. A limit with a `key` function runs after the guards
 * (`request.user` is known), and the requests they refuse (a 4xx before the key function ran) are counted before
 * them by client address, under the same name, limit and window (as express-rate-limit and @fastify/rate-limit count
 * before authentication): once an address has had `limit` refusals in a window, its requests to those routes get 429
 * without the guards running, right credentials included, until the window ends. Wrong API keys against
 * `@RateLimit({ limit: 3, key: (r) => r.user?.sub })` get 401, 401, 401, 429; each user keeps a count of 3.
 *
 * @example
 * ```ts
 * import { Get, Post, RateLimit, router, type Request } from 'trellis';
 *
 * @RateLimit({ limit: 60, window: '1m' })                   // every route of the router: 60 a minute per client address
 * export class AdminRouter extends router('/admin') {
 *   @Get('/stats') stats() { return { ok: true }; }
 *
 *   @Post('/export')
 *   @RateLimit({ limit: 5, window: '1h', key: (request: Request) => request.user?.sub })
 *   export() { return { queued: true }; }                   // 5 an hour per signed-in user
 *
 *   @Get('/ping') @RateLimit(false) ping() { return 'pong'; } // not limited
 * }
 * ```
 */
export function RateLimit(options: RateLimitOptions | false): ClassDecorator & MethodDecorator {
  if (options === false) return rateLimitMarks.decorator(false);
  ratePolicy(options, 'route');
  const mark = rateLimitMarks.decorator({ options, policy: (fallbackName) => ratePolicy(options, fallbackName) });
  return ((target: object, handler?: string | symbol, descriptor?: PropertyDescriptor) => {
    limited.add((handler === undefined ? target : target.constructor) as Function);
    return (mark as (target: object, handler?: string | symbol, descriptor?: PropertyDescriptor) => void)(target, handler, descriptor);
  }) as ClassDecorator & MethodDecorator;
}
