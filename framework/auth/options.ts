import { createPublicKey, type KeyObject, type webcrypto } from 'node:crypto';
import { isScopeName } from '../decorators/scopes';
import { TrellisError } from '../framework-error';
import type { SecurityScheme } from '../security';
import { checkRealm } from './challenge';

/**
 * What `jwtAuth` verifies tokens with and what it requires of them. Give one key source: `secret` (HMAC),
 * `publicKey` (PEM, `KeyObject`, `CryptoKey` or JWK), `jwksUri`, or `issuer` alone (OpenID Connect discovery).
 *
 * @example
 * ```ts
 * jwtAuth({ secret: process.env.JWT_SECRET!, issuer: 'https://api.example.com', audience: 'tasks' });
 * jwtAuth({ jwksUri: 'https://login.example.com/.well-known/jwks.json', audience: 'tasks' });
 * jwtAuth({ issuer: 'https://login.example.com' });   // discovery: jwks_uri from /.well-known/openid-configuration
 * ```
 */
export interface JwtAuthOptions {
  /** A shared secret, at least 32 bytes, for HS256/384/512 tokens. */
  secret?: string | Uint8Array;
  /** A public key for RS*, PS*, ES* or EdDSA tokens: PEM (SPKI), a `KeyObject`, a `CryptoKey` or a JWK. */
  publicKey?: string | KeyObject | webcrypto.CryptoKey | PublicJwk;
  /**
   * The URL of a JSON Web Key Set: fetched at the first token, cached; an unknown `kid` refetches it, at most once
   * per `jwksCooldown`. Only a 200 OK with a key set is used (a redirect is not followed).
   */
  jwksUri?: string;
  /** Checked against the token's `iss`. Alone (no other key source): OpenID Connect discovery of the `jwks_uri`. */
  issuer?: string;
  /** Checked against the token's `aud`: one of these must be in it. */
  audience?: string | string[];
  /** The algorithms accepted (an allow-list): `['HS256']` for a secret, `['RS256']` otherwise. */
  algorithms?: string[];
  /** Seconds of clock skew allowed on `exp` and `nbf`; 0 by default. */
  clockTolerance?: number;
  /** Scopes every route behind this guard needs (besides each route's `@Scopes`). */
  scopes?: string[];
  /** The `realm` of the `WWW-Authenticate` challenges; none by default. */
  realm?: string;
  /** The key of the scheme in the OpenAPI document: `bearerAuth` (http bearer JWT), `openIdConnect` with discovery. */
  schemeName?: string;
  /**
   * How the OpenAPI document describes the guard, replacing the default (http bearer JWT; OpenID Connect with
   * discovery): an `oauth2` scheme with its flows, for instance. Only the document changes.
   */
  security?: SecurityScheme;
  /**
   * Milliseconds before an unknown `kid` may refetch the JWKS again (jose's cooldown), and before a failed fetch of
   * the JWKS or the discovery document is tried again; 30000 by default.
   */
  jwksCooldown?: number;
  /** Milliseconds a JWKS or discovery fetch may take; 5000 by default. */
  fetchTimeout?: number;
  /**
   * Tokens verified lately, kept so the same token is not verified again: at most `max` (1000 by default), each
   * until it expires or for `ttl` seconds (60 by default), whichever is first. `false` verifies every request.
   */
  cache?: { max?: number; ttl?: number } | false;
}

/**
 * A public key as a JSON Web Key (RFC 7517), as a JWKS lists them.
 *
 * @example
 * ```ts
 * const jwk: PublicJwk = { kty: 'RSA', n: '0vx7...', e: 'AQAB', kid: 'key-1' };
 * ```
 */
export interface PublicJwk {
  kty: string;
  kid?: string;
  alg?: string;
  [member: string]: unknown;
}

/** Where the keys come from, checked. */
export type KeySource =
  | { kind: 'secret'; bytes: Uint8Array }
  | { kind: 'public'; key: KeyObject | webcrypto.CryptoKey | PublicJwk }
  | { kind: 'jwks'; url: URL }
  | { kind: 'discovery'; issuer: string };

/** The options, checked once, as the guard uses them. */
export interface JwtSettings {
  source: KeySource;
  algorithms: string[];
  issuer: string | undefined;
  audience: string | string[] | undefined;
  clockTolerance: number;
  scopes: readonly string[];
  realm: string | undefined;
  schemeName: string | undefined;
  security: SecurityScheme | undefined;
  jwksCooldown: number;
  fetchTimeout: number;
  /** How many verified tokens are kept (0: none), and for how long (ms). */
  cache: { max: number; ttl: number };
}

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const MIN_SECRET_BYTES = 32;

/** The options checked (errors name `guard`, the function or subclass): exactly one key source, algorithms the key can verify (never HS* with a public key), sane numbers. */
export function jwtSettings(options: JwtAuthOptions, guard = 'jwtAuth'): JwtSettings {
  const fail = (option: string, reason: string) => new TrellisError('TRELLIS_ERR_AUTH_OPTION', guard, option, reason);
  if (options === null || typeof options !== 'object') throw fail('options', 'give an object: jwtAuth({ secret }) or { publicKey }, { jwksUri }, { issuer }');
  const given = (['secret', 'publicKey', 'jwksUri'] as const).filter((name) => options[name] !== undefined);
  if (given.length > 1) throw fail(given.join(', '), 'give one key source');
  if (given.length === 0 && options.issuer === undefined) {
    throw fail('secret', 'give a key source: secret, publicKey, jwksUri, or issuer alone (OpenID Connect discovery)');
  }
  const source = keySource(options, fail);
  const allowed = source.kind === 'secret' ? HMAC : ASYMMETRIC;
  const algorithms = options.algorithms ?? [source.kind === 'secret' ? 'HS256' : 'RS256'];
  if (!Array.isArray(algorithms) || algorithms.length === 0) throw fail('algorithms', 'give a non-empty list such as ["RS256"]');
  for (const alg of algorithms) {
    if (!allowed.includes(alg)) {
      throw fail('algorithms', `${JSON.stringify(alg)} cannot verify with ${source.kind === 'secret' ? 'a secret (use HS256, HS384 or HS512)' : 'a public key (HS* with a public key is the algorithm-confusion attack)'}`);
    }
  }
  if (options.issuer !== undefined && (typeof options.issuer !== 'string' || !options.issuer)) throw fail('issuer', 'give a non-empty string');
  const audience = options.audience;
  if (audience !== undefined && !(typeof audience === 'string' ? audience : Array.isArray(audience) && audience.length && audience.every((a) => typeof a === 'string' && a))) {
    throw fail('audience', 'give a non-empty string or list of strings');
  }
  for (const scope of options.scopes ?? []) if (!isScopeName(scope)) throw fail('scopes', `${JSON.stringify(scope)} is not a scope name (printable ASCII without spaces, quotes or backslashes)`);
  if (options.security !== undefined && (typeof options.security !== 'object' || typeof options.security.schemeName !== 'string')) {
    throw fail('security', 'give a SecurityScheme with a schemeName, e.g. { schemeName: "oauth2", type: "oauth2", flows: { ... } }');
  }
  return {
    source,
    algorithms: [...algorithms],
    issuer: options.issuer,
    audience,
    clockTolerance: nonNegative(options.clockTolerance, 0, 'clockTolerance', fail),
    scopes: Object.freeze([...(options.scopes ?? [])]),
    realm: checkRealm(options.realm, fail),
    schemeName: options.schemeName,
    security: options.security,
    jwksCooldown: nonNegative(options.jwksCooldown, 30_000, 'jwksCooldown', fail),
    fetchTimeout: nonNegative(options.fetchTimeout, 5_000, 'fetchTimeout', fail),
    cache: cacheSettings(options.cache, fail),
  };
}

type Fail = (option: string, reason: string) => TrellisError;

function keySource(options: JwtAuthOptions, fail: Fail): KeySource {
  const { secret, publicKey, jwksUri } = options;
  if (secret !== undefined) {
    if (typeof secret === 'string' && secret.includes('-----BEGIN')) throw fail('secret', 'a PEM key is not a secret: give it as publicKey');
    const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
    if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES) {
      throw fail('secret', `give at least ${MIN_SECRET_BYTES} bytes (a string or Uint8Array), e.g. openssl rand -hex 32`);
    }
    return { kind: 'secret', bytes };
  }
  if (publicKey !== undefined) {
    if (typeof publicKey === 'string') {
      try {
        return { kind: 'public', key: createPublicKey(publicKey) };
      } catch {
        throw fail('publicKey', 'not a PEM public key (-----BEGIN PUBLIC KEY-----)');
      }
    }
    if (publicKey === null || typeof publicKey !== 'object') throw fail('publicKey', 'give a PEM string, a KeyObject, a CryptoKey or a JWK');
    if ('type' in publicKey && (publicKey.type === 'secret' || publicKey.type === 'private')) {
      throw fail('publicKey', `a ${publicKey.type} key: give the public key`);
    }
    return { kind: 'public', key: publicKey };
  }
  if (jwksUri !== undefined) return { kind: 'jwks', url: httpUrl(jwksUri, 'jwksUri', fail) };
  return { kind: 'discovery', issuer: httpUrl(options.issuer, 'issuer', fail).href.replace(/\/$/, '') };
}

function httpUrl(value: unknown, option: string, fail: Fail): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw fail(option, `${JSON.stringify(value)} is not an http(s) URL`);
  return url;
}

function cacheSettings(cache: JwtAuthOptions['cache'], fail: Fail): { max: number; ttl: number } {
  if (cache === false) return { max: 0, ttl: 0 };
  if (cache !== undefined && (cache === null || typeof cache !== 'object')) throw fail('cache', 'give { max, ttl } or false');
  const max = nonNegative(cache?.max, 1000, 'cache.max', fail);
  if (!Number.isInteger(max)) throw fail('cache.max', `${max} is not a whole number`);
  return { max, ttl: nonNegative(cache?.ttl, 60, 'cache.ttl', fail) * 1000 };
}

function nonNegative(value: unknown, fallback: number, option: string, fail: Fail): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw fail(option, `${JSON.stringify(value)} is not a number from 0`);
  return value;
}
