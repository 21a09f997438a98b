/**
 * trellis/security: how a middleware tells the OpenAPI document which credentials it checks, as FastAPI's
 * `fastapi.security` does: `bearerAuth()`, `apiKeyHeader(name)`, `basicAuth()` or a plain Security Scheme Object.
 *
 * @example
 * ```ts
 * import { bearerAuth } from 'trellis/security';
 *
 * class RequireToken extends Middleware {
 *   static readonly security = bearerAuth({ bearerFormat: 'JWT' });
 * }
 * ```
 */

/**
 * How a middleware says which credentials it checks, for the OpenAPI document: an OpenAPI Security Scheme Object
 * plus `schemeName`, its key in `components.securitySchemes` and in the operations' `security`. A middleware
 * declares it as a static property (read from the class, never built for it); routes behind that middleware
 * are documented with `security` and a 401.
 *
 * @example
 * ```ts
 * class RequireToken extends Middleware {
 *   static readonly security = bearerAuth();     // or a plain object:
 *   // static readonly security: SecurityScheme = { schemeName: 'bearerAuth', type: 'http', scheme: 'bearer' };
 *   async dispatch(request: Request, callNext: CallNext) { ... }
 * }
 * ```
 */
export type SecurityScheme = { schemeName: string; description?: string } & (
  | { type: 'http'; scheme: string; bearerFormat?: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string }
  | { type: 'oauth2'; flows: Record<string, unknown> }
  | { type: 'openIdConnect'; openIdConnectUrl: string }
);

/**
 * What a middleware's `static security` holds: one scheme, or several of which a request needs any one (a
 * guard that takes a bearer token or an API key).
 *
 * @example
 * ```ts
 * static readonly security: SecurityDeclaration = [bearerAuth(), apiKeyHeader('X-API-Key')];
 * ```
 */
export type SecurityDeclaration = SecurityScheme | readonly SecurityScheme[];

interface SchemeOptions {
  /** The key in `components.securitySchemes` (defaults: `bearerAuth`, `apiKeyAuth`, `basicAuth`). */
  schemeName?: string;
  description?: string;
}

/**
 * `Authorization: Bearer <token>` (RFC 6750), named `bearerAuth` unless `schemeName` says otherwise.
 *
 * @example
 * ```ts
 * class RequireToken extends Middleware {
 *   static readonly security = bearerAuth({ bearerFormat: 'JWT' });
 * }
 * ```
 */
export function bearerAuth(options: SchemeOptions & { bearerFormat?: string } = {}): SecurityScheme {
  const { schemeName = 'bearerAuth', description, bearerFormat } = options;
  return { schemeName, type: 'http', scheme: 'bearer', ...(bearerFormat ? { bearerFormat } : {}), ...described(description) };
}

/**
 * An API key in a request header, named `apiKeyAuth` unless `schemeName` says otherwise (two different keys
 * need two names).
 *
 * @example
 * ```ts
 * class RequireApiKey extends Middleware {
 *   static readonly security = apiKeyHeader('X-API-Key');
 * }
 * ```
 */
export function apiKeyHeader(header: string, options: SchemeOptions = {}): SecurityScheme {
  const { schemeName = 'apiKeyAuth', description } = options;
  return { schemeName, type: 'apiKey', in: 'header', name: header, ...described(description) };
}

/**
 * `Authorization: Basic <base64 user:password>` (RFC 7617), named `basicAuth` unless `schemeName` says otherwise.
 *
 * @example
 * ```ts
 * class RequireLogin extends Middleware {
 *   static readonly security = basicAuth();
 * }
 * ```
 */
export function basicAuth(options: SchemeOptions = {}): SecurityScheme {
  const { schemeName = 'basicAuth', description } = options;
  return { schemeName, type: 'http', scheme: 'basic', ...described(description) };
}

function described(description: string | undefined): { description?: string } {
  return description ? { description } : {};
}
