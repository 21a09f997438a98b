import { jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { errorResponse } from '../error-envelope';
import { Middleware, type CallNext } from '../middleware';
import { report } from '../report';
import type { Request, User } from '../request';
import type { Response } from '../response';
import type { SecurityScheme } from '../security';
import { CHECKS_SCOPES, SCOPES } from '../symbols';
import { Challenges } from './challenge';
import { discoveryUrl } from './discovery';
import { keyResolver } from './keys';
import type { JwtSettings } from './options';
import { REFUSALS, refusalOf, type Refusal } from './refusals';
import { grants, neededScopes } from './token-scopes';
import { VerifiedTokens, type Verified } from './verified-tokens';

/**
 * The guard `jwtAuth` returns: verifies `Authorization: Bearer <jwt>` with jose's `jwtVerify` (the key imported
 * once, the options built once), sets `request.user` to the claims, checks the scopes the route needs, and
 * answers 401/403 with RFC 6750 challenges otherwise.
 */
export class JwtGuard extends Middleware {
  /** The scheme it documents in OpenAPI (read by the document, as a middleware's `security`). */
  readonly security: SecurityScheme;
  /** Scopes every route behind it needs (besides `@Scopes`). */
  readonly scopes: readonly string[];
  /** @internal */
  readonly [CHECKS_SCOPES] = true;
  readonly #key: JWTVerifyGetKey;
  readonly #options: JWTVerifyOptions;
  readonly #challenges: Challenges;
  readonly #verified: VerifiedTokens;

  constructor(settings: JwtSettings) {
    super();
    this.scopes = settings.scopes;
    this.#key = keyResolver(settings);
    this.#options = {
      algorithms: settings.algorithms,
      ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
      ...(settings.audience === undefined ? {} : { audience: settings.audience }),
      ...(settings.clockTolerance ? { clockTolerance: settings.clockTolerance } : {}),
    };
    this.#challenges = new Challenges('Bearer', settings.realm);
    this.#verified = new VerifiedTokens(settings.cache.max, settings.cache.ttl, settings.clockTolerance);
    this.security = settings.security ?? schemeOf(settings);
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return this.#refuse('missing');
    const token = bearerToken(header);
    if (token === undefined) return this.#refuse('scheme');
    if (token === '') return this.#refuse('malformed');
    const known = this.#verified.recall(token, Date.now());
    if (known !== undefined) return this.#admit(known, request, callNext);
    return jwtVerify(token, this.#key, this.#options).then(
      ({ payload }) => this.#admit(this.#verified.remember(token, payload as User, Date.now()), request, callNext),
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
    // The server's problem, not the client's: say so in the log (never the token).
    if (refusal === 'keysUnavailable') report(request.log, request, 'the keys that verify tokens could not be fetched', error);
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
