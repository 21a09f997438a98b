import type { MiddlewareLike } from '../../middleware';
import { SecuritySchemes } from '../../openapi/security';
import type { SecuritySchemeObject } from '../../openapi/types';
import type { AsyncOperationObject, AsyncSecurityScheme, Reference } from './types';

const PREFIX = '#/components/securitySchemes/';

/** What an operation says of its security: the schemes, and the OpenAPI-style requirements when the list cannot say them. */
export type OperationSecurity = Pick<AsyncOperationObject, 'security' | 'x-security-requirements'>;

/**
 * The security of a gateway's operations in AsyncAPI 3.0's terms, read from the guards as the OpenAPI document reads
 * them (a middleware's `security` declaration, a scope-aware guard's scopes and `@Scopes`): each scheme once in
 * `components.securitySchemes` (`apiKey` becomes `httpApiKey`, OAuth 2.0 flows' `scopes` become `availableScopes`),
 * and on each operation the schemes any one of which admits a client. AsyncAPI names the scopes an operation needs
 * only on `oauth2` and `openIdConnect` schemes (their `scopes`); on the others (a JWT bearer) they go in `x-scopes`.
 * Either way the operation lists a copy of the scheme with its scopes instead of a `$ref`.
 */
export class AsyncSecurity {
  readonly #schemes = new SecuritySchemes();

  /** The security of an operation behind `middleware` (app-wide first, then the gateway's, then the handler's) that needs `scopes`. */
  of(middleware: readonly MiddlewareLike[], scopes: readonly string[] | undefined): OperationSecurity {
    const requirements = this.#schemes.requirementsOf(middleware, scopes);
    if (!requirements) return {};
    const declared = this.#schemes.components ?? {};
    const entries = new Map<string, Reference | AsyncSecurityScheme>();
    for (const requirement of requirements) {
      for (const [name, needed] of Object.entries(requirement)) {
        const entry = needed.length ? withScopes(asyncScheme(declared[name]), needed) : { $ref: PREFIX + name };
        entries.set(JSON.stringify(entry), entry);
      }
    }
    // AsyncAPI 3.0's `security` lists alternatives: guards that are all needed (two keys of one requirement) need words of their own.
    const joint = requirements.some((requirement) => Object.keys(requirement).length > 1);
    return { security: [...entries.values()], ...(joint ? { 'x-security-requirements': requirements } : {}) };
  }

  /** `components.securitySchemes` in AsyncAPI form, sorted by name; undefined when no gateway is guarded. */
  get components(): Record<string, AsyncSecurityScheme> | undefined {
    const declared = this.#schemes.components;
    return declared && Object.fromEntries(Object.entries(declared).map(([name, scheme]) => [name, asyncScheme(scheme)]));
  }
}

/** An OpenAPI Security Scheme Object as AsyncAPI 3.0 writes it; a type AsyncAPI shares with OpenAPI is copied. */
export function asyncScheme(scheme: SecuritySchemeObject): AsyncSecurityScheme {
  const described = typeof scheme.description === 'string' ? { description: scheme.description } : {};
  switch (scheme.type) {
    case 'http': {
      const name = String(scheme.scheme).toLowerCase();
      const format = name === 'bearer' && typeof scheme.bearerFormat === 'string' ? { bearerFormat: scheme.bearerFormat } : {};
      return { type: 'http', scheme: name, ...format, ...described };
    }
    case 'apiKey':
      return { type: 'httpApiKey', name: scheme.name, in: scheme.in, ...described };
    case 'oauth2': {
      const flows = Object.entries((scheme.flows ?? {}) as Record<string, Record<string, unknown>>).map(([kind, { scopes, ...flow }]) => [kind, { ...flow, availableScopes: scopes ?? {} }]);
      return { type: 'oauth2', flows: Object.fromEntries(flows), ...described };
    }
    default:
      return { ...scheme };
  }
}

function withScopes(scheme: AsyncSecurityScheme, scopes: string[]): AsyncSecurityScheme {
  return scheme.type === 'oauth2' || scheme.type === 'openIdConnect' ? { ...scheme, scopes } : { ...scheme, 'x-scopes': scopes };
}
