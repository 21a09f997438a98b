import { TrellisError } from '../framework-error';
import { metadataOf, type metadataChain } from '../metadata';

/**
 * The scopes a route needs (OAuth 2.0 scopes, such as `tasks:write`): on a handler, that route; on a router class,
 * each of its routes (a handler's scopes add to its class's). Only records them: a scope-aware guard on the route
 * (`jwtAuth` from `trellis/auth`, app-wide or `@Use`) checks them, answering 403 `insufficient_scope` when the
 * token lacks one; a route with `@Scopes` and no such guard refuses the start (`TRELLIS_ERR_SCOPES_UNGUARDED`).
 * The OpenAPI document lists them in the route's security requirement.
 *
 * @example
 * ```ts
 * @Use(jwtAuth({ secret: process.env.JWT_SECRET! }))
 * class TaskRouter extends router('/tasks') {
 *   @Get('') list() { return []; }                                          // any valid token
 *   @Post('') @Scopes('tasks:write') create(@Body() task: NewTask) { ... }  // a token with tasks:write
 * }
 * ```
 */
export function Scopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  for (const scope of scopes) {
    if (!isScopeName(scope)) {
      throw new TrellisError('TRELLIS_ERR_SCOPE_NAME', JSON.stringify(scope) ?? String(scope));
    }
  }
  return ((target: object, handler?: string | symbol) => {
    if (handler === undefined) {
      metadataOf(target).scopes.push(...scopes);
      return;
    }
    const routes = metadataOf(target.constructor).routeScopes;
    routes.set(handler, [...scopes, ...(routes.get(handler) ?? [])]);
  }) as ClassDecorator & MethodDecorator;
}

/**
 * Whether `scope` is a scope name RFC 6749 §3.3 allows: printable ASCII without space, `"` or `\`, so it can be
 * sent back in a challenge's `scope="..."` as it is. The rule `@Scopes`, the guards and `trellis token` apply.
 *
 * @example
 * ```ts
 * isScopeName('tasks:write'); // true
 * isScopeName('tasks write'); // false
 * ```
 */
export function isScopeName(scope: unknown): scope is string {
  return typeof scope === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope);
}

/**
 * The scopes a route needs: its classes' (a base router's first), then its handler's (as declared where the
 * method is, nearest class first), each once; `undefined` when none. Read once, when the routes are collected.
 */
export function scopesOf(chain: ReturnType<typeof metadataChain>, handler: string | symbol): readonly string[] | undefined {
  const onClasses = [...chain].reverse().flatMap((metadata) => metadata.scopes);
  const onHandler = chain.map((metadata) => metadata.routeScopes.get(handler)).find(Boolean) ?? [];
  const scopes = [...new Set([...onClasses, ...onHandler])];
  return scopes.length ? Object.freeze(scopes) : undefined;
}
