import { TrellisError } from '../framework-error';
import type { MiddlewareLike } from '../middleware';
import { CHECKS_SCOPES } from '../symbols';
import type { RouteRecord } from './collect';

/**
 * Whether a middleware checks the scopes routes need: a `jwtAuth()` instance, or the `JwtAuth` class or a subclass
 * (its static flag), read without building anything, so `trellis doctor` tells what the start would.
 */
export function checksScopes(like: MiddlewareLike): boolean {
  return (like as { [CHECKS_SCOPES]?: boolean })[CHECKS_SCOPES] === true;
}

/**
 * `TRELLIS_ERR_SCOPES_UNGUARDED` for each route with `@Scopes` that no scope-aware guard covers (the app's
 * middleware, the router's, `@Use`): such a route would otherwise be open to anyone.
 *
 * @example
 * ```ts
 * const [first] = unguardedScopes(routes, app.middleware);
 * if (first) throw first;
 * ```
 */
export function unguardedScopes(routes: readonly RouteRecord[], appMiddleware: readonly MiddlewareLike[]): TrellisError[] {
  if (appMiddleware.some(checksScopes)) return [];
  return routes
    .filter((route) => route.scopes && !route.middleware.some(checksScopes))
    .map((route) => new TrellisError('TRELLIS_ERR_SCOPES_UNGUARDED', `${route.method} ${route.path}`, route.label, route.scopes!.join(' ')));
}
