import { JwtAuth } from './jwt-guard';
import type { JwtAuthOptions } from './options';

/**
 * A guard that verifies `Authorization: Bearer <jwt>`, sets `request.user` to the token's claims and checks the
 * scopes the route needs (`@Scopes` and `options.scopes`; the claim `scope`, space-separated, or `scp`, a list).
 * Refusals: 401 `{ "error": ... }` with `WWW-Authenticate: Bearer error="invalid_token", error_description="..."`
 * (a request without a token: `Bearer`, with the realm if set), 403 with `error="insufficient_scope",
 * scope="..."`. Options are checked at once (`TRELLIS_ERR_AUTH_OPTION`). Documented in OpenAPI as an http bearer
 * JWT scheme (`openIdConnect` with discovery), each route's requirement listing its scopes. It is
 * `new JwtAuth(options)`: extend {@link JwtAuth} to build the options from injected services.
 *
 * @example
 * ```ts
 * app.addMiddleware(jwtAuth({ secret: process.env.JWT_SECRET!, audience: 'tasks' }));        // every route
 * @Use(jwtAuth({ jwksUri: 'https://login.example.com/jwks.json' })) class AdminRouter ...    // one router
 * ```
 */
export function jwtAuth(options: JwtAuthOptions): JwtAuth {
  return new JwtAuth(options);
}
