import { TrellisError } from '../framework-error';
import type { MiddlewareLike } from '../middleware';
import type { SecurityDeclaration, SecurityScheme } from '../security';
import { CHECKS_SCOPES } from '../symbols';
import { HTTP_ERROR } from './responses';
import type { SchemaRegistry } from './schemas';
import type { OperationObject, ResponseObject, SecurityRequirementObject, SecuritySchemeObject } from './types';

/**
 * The security schemes the middleware of an app's routes declare (`static security` on a class, a `security`
 * property on an instance or an Express function): each route behind one gets `security` and a 401, and
 * `components.securitySchemes` lists the schemes used, each once by its `schemeName`.
 */
export class SecuritySchemes {
  readonly #schemes = new Map<string, SecuritySchemeObject>();

  /**
   * The requirements of a route behind `middleware` (app-wide first, then its own), or `undefined` when none
   * declares a scheme. Each guard must pass (one requirement object names them all); a guard declaring several
   * schemes takes any one of them (one requirement object per choice). A scope-aware guard's schemes list the
   * scopes it checks there (its own, then the route's `@Scopes`, as OpenAPI 3.1 allows on any scheme); other
   * schemes list none.
   */
  requirementsOf(middleware: readonly MiddlewareLike[], routeScopes?: readonly string[]): SecurityRequirementObject[] | undefined {
    let requirements: SecurityRequirementObject[] | undefined;
    for (const like of middleware) {
      const choices = [securityOf(like) ?? []].flat();
      if (!choices.length) continue;
      for (const scheme of choices) this.#register(scheme);
      const names = choices.map((scheme) => scheme.schemeName);
      const scopes = scopesChecked(like, routeScopes);
      requirements = (requirements ?? [{}]).flatMap((requirement) => names.map((name) => ({ ...requirement, [name]: [...new Set([...(requirement[name] ?? []), ...scopes])] })));
    }
    return requirements;
  }

  /** `components.securitySchemes`, sorted by name; `undefined` when no route is guarded. */
  get components(): Record<string, SecuritySchemeObject> | undefined {
    const names = [...this.#schemes.keys()].sort();
    return names.length ? Object.fromEntries(names.map((name) => [name, this.#schemes.get(name)!])) : undefined;
  }

  #register({ schemeName, ...scheme }: SecurityScheme): void {
    const known = this.#schemes.get(schemeName);
    if (!known) this.#schemes.set(schemeName, scheme);
    else if (JSON.stringify(known) !== JSON.stringify(scheme)) throw new TrellisError('TRELLIS_ERR_SECURITY_SCHEME_CLASH', schemeName);
  }
}

/**
 * `operation` with its `security` and, unless the route documents its own, a 401 (`{ error }` with the
 * `WWW-Authenticate` challenge), for a route behind middleware declaring `requirements`.
 */
export function secured(operation: OperationObject, requirements: SecurityRequirementObject[] | undefined, registry: SchemaRegistry): OperationObject {
  if (!requirements) return operation;
  const responses = { ...operation.responses };
  responses['401'] ??= unauthorized(registry);
  if (requirements.some((requirement) => Object.values(requirement).some((scopes) => scopes.length))) responses['403'] ??= forbidden(registry);
  return { ...operation, security: requirements, responses };
}

/**
 * The scopes a guard checks on a route: none unless it is scope-aware (a `jwtAuth` instance, or a `JwtAuth`
 * subclass, read from its statics): then its own and the route's.
 */
function scopesChecked(like: MiddlewareLike, routeScopes: readonly string[] | undefined): readonly string[] {
  const guard = like as { [CHECKS_SCOPES]?: boolean; scopes?: readonly string[] };
  if (guard[CHECKS_SCOPES] !== true) return [];
  return [...(guard.scopes ?? []), ...(routeScopes ?? [])];
}

function forbidden(registry: SchemaRegistry): ResponseObject {
  return {
    description: 'Forbidden: the token lacks a scope this route needs',
    headers: { 'WWW-Authenticate': { description: '`Bearer error="insufficient_scope", scope="..."`: the scopes needed', schema: { type: 'string' } } },
    content: { 'application/json': { schema: registry.define('HTTPError', HTTP_ERROR) } },
  };
}

function unauthorized(registry: SchemaRegistry): ResponseObject {
  return {
    description: 'Unauthorized: credentials missing or wrong',
    headers: { 'WWW-Authenticate': { description: 'The authentication scheme to use, e.g. `Bearer`', schema: { type: 'string' } } },
    content: { 'application/json': { schema: registry.define('HTTPError', HTTP_ERROR) } },
  };
}

/** What a middleware declares: the class's (or an Express function's) `security`, or an instance's, else its class's. */
export function securityOf(like: MiddlewareLike): SecurityDeclaration | undefined {
  const holder = like as { security?: SecurityDeclaration; constructor?: { security?: SecurityDeclaration } };
  if (typeof like === 'function') return holder.security;
  return holder.security ?? holder.constructor?.security;
}
