import { decodeProtectedHeader, jwtVerify, type CompactJWSHeaderParameters, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import type { User } from '../request';
import { fastVerifier, sourceKey, type FastKey, type FastVerify } from './fast-verify';
import type { KeyResolver } from './keys';
import type { JwtSettings } from './options';

/** Verifies a token: its claims (at once when fast-jwt could tell), or rejects with what jose refused it for. */
export type Verify = (token: string) => User | Promise<User>;

/**
 * How the guard verifies a token, made once. fast-jwt checks the signature and claims synchronously, with
 * node:crypto, for every token jose would accept (see {@link fastVerifier}); anything else, every refusal
 * included, is jose's `jwtVerify`, so the refusals and their sentences are jose's, as they always were. jose also
 * finds the keys: it imports a secret or public key once; for a JWKS or discovery it fetches and picks the key
 * of each token (by `kid` and `alg`), and fast-jwt then verifies with that key.
 *
 * @example
 * ```ts
 * const verify = tokenVerifier(settings, keyResolver(settings));
 * const claims = await verify(token); // or rejects: refusalOf(error) says why
 * ```
 */
export function tokenVerifier(settings: JwtSettings, keys: KeyResolver): Verify {
  const options: JWTVerifyOptions = {
    algorithms: settings.algorithms,
    ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
    ...(settings.audience === undefined ? {} : { audience: settings.audience }),
    ...(settings.clockTolerance ? { clockTolerance: settings.clockTolerance } : {}),
  };
  const byJose = (token: string, getKey: JWTVerifyGetKey) => jwtVerify(token, getKey, options).then(({ payload }) => payload as User);
  const { source } = settings;
  if (source.kind === 'jwks' || source.kind === 'discovery') return fetchedKeys(settings, keys.getKey, byJose);
  const fast = fastVerifier(sourceKey(source), settings);
  if (fast === undefined) return (token) => byJose(token, keys.getKey);
  return (token) => fast(token) ?? byJose(token, keys.getKey);
}

/**
 * With keys from a JWKS: jose reads the header and finds its key (fetching the set when it must); fast-jwt
 * verifies with that key, one verifier per key (jose keeps the same `CryptoKey` until the set changes). When the
 * key cannot be found, jose is handed the failure as its key lookup: it checks the token as it always did first,
 * so a token it refuses for its own faults says so, and the others get the lookup's refusal.
 */
function fetchedKeys(settings: JwtSettings, getKey: JWTVerifyGetKey, byJose: (token: string, getKey: JWTVerifyGetKey) => Promise<User>): Verify {
  const allowed = new Set(settings.algorithms);
  const verifiers = new WeakMap<object, FastVerify | null>();
  return async (token) => {
    const parts = token.split('.');
    let header: ReturnType<typeof decodeProtectedHeader> | undefined;
    try {
      header = parts.length === 3 ? decodeProtectedHeader(token) : undefined;
    } catch {
      header = undefined;
    }
    // What jose refuses before it asks for a key is refused without a lookup (and without a fetch).
    if (header === undefined || typeof header.alg !== 'string' || !allowed.has(header.alg)) return byJose(token, getKey);
    let key: Awaited<ReturnType<JWTVerifyGetKey>>;
    try {
      key = await getKey(header as CompactJWSHeaderParameters, { protected: parts[0], payload: parts[1], signature: parts[2] });
    } catch (error) {
      return byJose(token, () => Promise.reject(error));
    }
    let fast = verifiers.get(key);
    if (fast === undefined) {
      fast = fastVerifier(key as FastKey, settings) ?? null;
      verifiers.set(key, fast);
    }
    return fast?.(token) ?? byJose(token, () => key);
  };
}
