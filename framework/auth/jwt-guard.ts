import { errorResponse } from '../error-envelope';
import { Middleware, type CallNext } from '../middleware';
import { report } from '../report';
import type { Request, User } from '../request';
import type { Response } from '../response';
import { TrellisError } from '../framework-error';
import { bearerAuth, type SecurityDeclaration, type SecurityScheme } from '../security';
import { CHECKS_SCOPES, SCOPES, SYNC_NEXT } from '../symbols';
import { isScopeName } from '../decorators/scopes';
import { isThenable } from '../core/thenable';
import { Challenges } from './challenge';
import { discoveryUrl } from './discovery';
import { KeysUnavailable } from './key-fetch';
import type { KeyOutage } from './key-outage';
import { keyResolver } from './keys';
import { jwtSettings, type JwtAuthOptions, type JwtSettings } from './options';
import { REFUSALS, refusalOf, type Refusal } from './refusals';
import { grants, neededScopes } from './token-scopes';
import { tokenVerifier, type Verify } from './token-verifier';
import { VerifiedTokens, type Verified } from './verified-tokens';

/**
 * The guard `jwtAuth` returns, as a class a project can extend to take its options from injected services:
 * verifies `Authorization: Bearer <jwt>` (fast-jwt for a token jose would accept, jose's `jwtVerify` for the rest:
 * see `tokenVerifier`; the keys and options made once),
 * sets `request.user` to the claims, checks the scopes the route needs (`@Scopes`, and the guard's own), and
 * answers 401/403 with RFC 6750 challenges otherwise.
 *
 * A subclass is what the OpenAPI document reads without building it, so it declares there what the document
 * shows: `static security` (the scheme; by default http bearer JWT named `bearerAuth`) and `static scopes`
 * (needed by every route behind it; none by default). Its options must not repeat them: `schemeName`,
 * `security` or `scopes` given to `super()` refuse the start (`TRELLIS_ERR_AUTH_OPTION`).
 *
 * @example
 * ```ts
 * @Injectable()
 * class RequireWriter extends JwtAuth {
 *   static readonly security = bearerAuth({ schemeName: 'bearerJwt', bearerFormat: 'JWT' });
 *   constructor(config: Config) {
 *     super({ secret: config.section('auth', AuthSettings).secret, realm: 'tasks' });
 *   }
 * }
 * // @Use(RequireWriter) on a router or route; @Scopes('tasks:write') on the handlers that need it
 * ```
 */
export class JwtAuth extends Middleware {
  /** The scheme a subclass documents (the document reads the class): http bearer JWT, `bearerAuth`. */
  static readonly security: SecurityDeclaration = bearerAuth({ bearerFormat: 'JWT' });
  /** Scopes every route behind a subclass needs (besides `@Scopes`); none unless the subclass declares some. */
  static readonly scopes: readonly string[] = [];
  /** @internal The document reads a class's scopes only when it checks them. */
  static readonly [CHECKS_SCOPES] = true;
  /** The scheme it documents in OpenAPI (read by the document, as a middleware's `security`). */
  readonly security: SecurityDeclaration;
  /** Scopes every route behind it needs (besides `@Scopes`). */
  readonly scopes: readonly string[];
  /** @internal */
  readonly [CHECKS_SCOPES] = true;
  /** @internal Its own `dispatch` passes the downstream response on as it comes: a synchronous GET stays synchronous. */
  readonly [SYNC_NEXT]: boolean;
  readonly #verify: Verify;
  readonly #outage: KeyOutage | undefined;
  readonly #challenges: Challenges;
  readonly #verified: VerifiedTokens;

  constructor(options: JwtAuthOptions) {
    super();
    const settings = jwtSettings(options, new.target === JwtAuth ? 'jwtAuth' : new.target.name);
    if (new.target === JwtAuth) {
      this.scopes = settings.scopes;
      this.security = settings.security ?? schemeOf(settings);
    } else {
      this.scopes = declaredScopes(new.target, options);
      this.security = new.target.security;
    }
    const keys = keyResolver(settings);
    this.#verify = tokenVerifier(settings, keys);
    this.#outage = keys.outage;
    // A subclass that writes its own dispatch gets the promise its `callNext` is typed to return.
    this[SYNC_NEXT] = this.dispatch === JwtAuth.prototype.dispatch;
    this.#challenges = new Challenges('Bearer', settings.realm);
    this.#verified = new VerifiedTokens(settings.cache.max, settings.cache.ttl, settings.clockTolerance);
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return this.#refuse('missing');
    const token = bearerToken(header);
    if (token === undefined) return this.#refuse('scheme');
    if (token === '') return this.#refuse('malformed');
    const known = this.#verified.recall(token, Date.now());
    if (known !== undefined) return this.#admit(known, request, callNext);
    const claims = this.#verify(token);
    if (!isThenable(claims)) return this.#admit(this.#verified.remember(token, claims, Date.now()), request, callNext);
    return (claims as Promise<User>).then(
      (payload) => {
        if (this.#outage?.news) this.#outage.tell(request);
        return this.#admit(this.#verified.remember(token, payload, Date.now()), request, callNext);
      },
      (error: unknown) => this.#reject(error, request),
    );
  }

  #admit(verified: Verified, request: Request, callNext: CallNext): Response | Promise<Response> {
    request.user = verified.user as User;
    const route = request[SCOPES];
    if ((route !== undefined || this.scopes.length !== 0) && !grants(verified.scopes, this.scopes, route)) {
      const needed = neededScopes(this.scopes, route);
      return errorResponse(403, REFUSALS.scope, { 'www-authenticate': this.#challenges.insufficient(needed) });
    }
    return callNext(request);
  }

  #reject(error: unknown, request: Request): Response {
    const refusal = refusalOf(error);
    // The server's problem, not the client's: say so in the log (never the token), once per outage of the keys'
    // endpoint (the outage logs it), each time for anything else.
    if (error instanceof KeysUnavailable) this.#outage?.refused();
    else if (refusal === 'keysUnavailable') report(request.log, request, 'the token could not be verified', error);
    if (this.#outage?.news) this.#outage.tell(request);
    return this.#refuse(refusal);
  }

  #refuse(refusal: Refusal): Response {
    // RFC 6750 §3.1: a request without a bearer token gets the bare challenge, no error code.
    const challenge = refusal === 'missing' || refusal === 'scheme' ? this.#challenges.missing : this.#challenges.invalid(REFUSALS[refusal]);
    return errorResponse(401, REFUSALS[refusal], { 'www-authenticate': challenge });
  }
}

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme case-insensitive, RFC 9110 §11.1): `''`
 * when nothing follows the scheme, `undefined` for another scheme.
 *
 * @example
 * ```ts
 * bearerToken('Bearer eyJ...'); // 'eyJ...'
 * bearerToken('Basic dXNlcg=='); // undefined
 * ```
 */
export function bearerToken(header: string): string | undefined {
  if (header.length < 7 || header.charCodeAt(6) !== 32 || header.slice(0, 6).toLowerCase() !== 'bearer') return undefined;
  let start = 7;
  while (header.charCodeAt(start) === 32) start++;
  // jose refuses whatever is not a compact JWS (three base64url parts) as malformed.
  return header.slice(start);
}

function schemeOf(settings: JwtSettings): SecurityScheme {
  const { source, schemeName } = settings;
  if (source.kind === 'discovery') {
    return { schemeName: schemeName ?? 'openIdConnect', type: 'openIdConnect', openIdConnectUrl: discoveryUrl(source.issuer) };
  }
  return { schemeName: schemeName ?? 'bearerAuth', type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
}

/**
 * What a subclass's document shows comes from its statics, so its options may not say it a second way (they
 * would be checked at runtime and missing from the document).
 */
function declaredScopes(subclass: typeof JwtAuth, options: JwtAuthOptions): readonly string[] {
  const name = subclass.name;
  for (const option of ['schemeName', 'security', 'scopes'] as const) {
    if (options[option] !== undefined) {
      const instead = option === 'scopes' ? 'static readonly scopes = [...] on the class, or @Scopes on the routes' : 'static readonly security = bearerAuth({ schemeName, bearerFormat: "JWT" }) on the class';
      throw new TrellisError('TRELLIS_ERR_AUTH_OPTION', name, option, `a JwtAuth subclass is documented from the class without being built: declare ${instead}`);
    }
  }
  const scopes: unknown = subclass.scopes;
  if (!Array.isArray(scopes) || !scopes.every(isScopeName)) {
    throw new TrellisError('TRELLIS_ERR_AUTH_OPTION', name, 'static scopes', 'give a list of scope names (printable ASCII without spaces, quotes or backslashes)');
  }
  return Object.freeze([...(scopes as string[])]);
}
