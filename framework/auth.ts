/**
 * trellis/auth: who is calling. `jwtAuth` verifies bearer JWTs (a secret, a public key, a JWKS or OpenID Connect
 * discovery): fast-jwt checks signatures, jose finds keys and says why a token is refused (`JwtAuth`, its class,
 * is extended to take options from injected services); it sets `request.user` to the claims and checks the scopes
 * routes need (`@Scopes`); `apiKeyAuth` checks an API key; `signToken` mints tokens for tests. The only entry that
 * loads jose and fast-jwt: an app without it never does. See docs/guide/authentication.md and docs/reference/auth.md.
 *
 * @example
 * ```ts
 * import { BaseRouter, Get, Post, Use, router } from 'trellis';
 * import { jwtAuth, Scopes } from 'trellis/auth';
 *
 * @Use(jwtAuth({ secret: process.env.JWT_SECRET! }))
 * class TaskRouter extends router('/tasks') {
 *   @Get('') list() { return []; }
 *   @Post('') @Scopes('tasks:write') create() { return { id: 1 }; }
 * }
 * ```
 */
export { jwtAuth } from './auth/jwt-auth';
export { JwtAuth } from './auth/jwt-guard';
export type { JwtAuthOptions } from './auth/options';
export { apiKeyAuth } from './auth/api-key';
export type { ApiKeyAuthOptions, ApiKeyLookup } from './auth/api-key';
export { Scopes, isScopeName } from './decorators/scopes';
export { signToken } from './auth/sign';
export type { SignTokenOptions } from './auth/sign';
export { grantedScopes } from './auth/token-scopes';
export type { User } from './request';
