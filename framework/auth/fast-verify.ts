import { isUtf8 } from 'node:buffer';
import { createPublicKey, KeyObject, type JsonWebKey, type webcrypto } from 'node:crypto';
import { createVerifier, type Algorithm } from 'fast-jwt';
import type { User } from '../request';
import { isCryptoKey } from './keys';
import type { JwtSettings, KeySource, PublicJwk } from './options';

/** Verifies a token synchronously: its claims, or `undefined` when jose must decide (every refusal among them). */
export type FastVerify = (token: string) => User | undefined;

/** A key fast-jwt may verify with: a secret's bytes, or a public key in any form `publicKey` or a JWKS gives. */
export type FastKey = Uint8Array | KeyObject | webcrypto.CryptoKey | PublicJwk;

const HMAC = ['HS256', 'HS384', 'HS512'];
const RSA = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const CURVES: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512', 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/**
 * fast-jwt's verifier (node:crypto, synchronous; what @fastify/jwt runs) for `key`, with the guard's algorithms,
 * issuer, audience and clock tolerance; `undefined` when it can verify none of the algorithms with this key.
 *
 * It answers only for tokens jose's `jwtVerify` would accept too, so jose stays the verifier of record: a token
 * fast-jwt refuses, and one it reads more leniently than jose (an unknown `crit` value, a clock edge within a
 * second, a part that is not UTF-8 or of a length base64url cannot have), goes to jose, which refuses it with
 * the sentence it always did (or accepts it). Its algorithms are those jose verifies with the same key (an RSA
 * key of 2048 bits or more, the curve of an EC key, Ed25519, a CryptoKey's own algorithm and usages): a
 * narrower list is safe, jose verifies the rest.
 *
 * @example
 * ```ts
 * const verify = fastVerifier(secretBytes, settings);
 * verify?.(token); // the claims, or undefined: ask jose
 * ```
 */
export function fastVerifier(key: FastKey, settings: JwtSettings): FastVerify | undefined {
  const usable = fastKey(key);
  const algorithms = usable?.algorithms.filter((alg) => settings.algorithms.includes(alg));
  if (usable === undefined || !algorithms?.length) return undefined;
  const { issuer, audience, clockTolerance } = settings;
  let verify: (token: string) => { header: Record<string, unknown>; payload: User };
  try {
    verify = createVerifier({
      key: usable.material,
      algorithms: algorithms as Algorithm[],
      complete: true,
      ...(issuer === undefined ? {} : { allowedIss: issuer }),
      ...(audience === undefined ? {} : { allowedAud: audience }),
      requiredClaims: [...(issuer === undefined ? [] : ['iss']), ...(audience === undefined ? [] : ['aud'])],
      // fast-jwt counts milliseconds.
      clockTolerance: clockTolerance * 1000,
    });
  } catch {
    // A key fast-jwt will not take: jose verifies every token, as it did.
    return undefined;
  }
  return (token) => {
    let decoded: { header: Record<string, unknown>; payload: User };
    try {
      decoded = verify(token);
    } catch {
      return undefined;
    }
    return decoded.header.crit === undefined && asJoseReads(token, decoded.payload, clockTolerance) ? decoded.payload : undefined;
  };
}

/**
 * What fast-jwt reads more leniently than jose, checked after it accepted a token: `iat` of another type (jose
 * refuses it), `exp` and `nbf` against jose's clock (whole seconds: `exp` passed when `exp <= now - tolerance`,
 * where fast-jwt counts milliseconds), and the parts (jose refuses a length base64url cannot have, which Buffer
 * decodes by dropping the last character, and a header or payload that is not UTF-8, which Buffer mends).
 */
function asJoseReads(token: string, claims: User, tolerance: number): boolean {
  const { iat, exp, nbf } = claims as { iat?: unknown; exp?: unknown; nbf?: unknown };
  if (iat !== undefined && typeof iat !== 'number') return false;
  const now = Math.floor(Date.now() / 1000);
  if (typeof exp === 'number' && exp <= now - tolerance) return false;
  if (typeof nbf === 'number' && nbf > now + tolerance) return false;
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first % 4 === 1 || (second - first - 1) % 4 === 1 || (token.length - second - 1) % 4 === 1) return false;
  return isUtf8(Buffer.from(token.slice(0, first), 'base64url')) && isUtf8(Buffer.from(token.slice(first + 1, second), 'base64url'));
}

/** The key as fast-jwt takes it (a secret's bytes, a public key's PEM) and the algorithms jose verifies with it. */
function fastKey(key: FastKey): { material: Buffer | string; algorithms: string[] } | undefined {
  if (key instanceof Uint8Array) return { material: Buffer.from(key), algorithms: HMAC };
  if (key instanceof KeyObject) return publicKeyOf(key, algorithmsOf(key));
  if (isCryptoKey(key)) return cryptoKeyOf(key);
  return jwkOf(key as PublicJwk);
}

function algorithmsOf(key: KeyObject): string[] {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return (details.modulusLength ?? 0) >= 2048 ? RSA : [];
  if (key.asymmetricKeyType === 'ec') return CURVES[details.namedCurve ?? ''] ? [CURVES[details.namedCurve!]] : [];
  // fast-jwt names it EdDSA only; jose's fully specified `Ed25519` is left to jose.
  if (key.asymmetricKeyType === 'ed25519') return ['EdDSA'];
  return [];
}

function publicKeyOf(key: KeyObject, algorithms: string[]) {
  if (key.type !== 'public' || !algorithms.length) return undefined;
  return { material: key.export({ type: 'spki', format: 'pem' }) as string, algorithms };
}

/** A CryptoKey is made for one algorithm and its usages: jose verifies with it for that one only. */
function cryptoKeyOf(key: webcrypto.CryptoKey) {
  if (key.type !== 'public' || !key.usages.includes('verify')) return undefined;
  const { name, hash, namedCurve = '', modulusLength = 0 } = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string; modulusLength?: number };
  const bits = hash?.name.replace('SHA-', '');
  const alg = name === 'RSASSA-PKCS1-v1_5' ? `RS${bits}` : name === 'RSA-PSS' ? `PS${bits}` : name === 'ECDSA' ? CURVES[namedCurve] : name === 'Ed25519' ? 'EdDSA' : undefined;
  if (alg === undefined || (name.startsWith('RSA') && (modulusLength < 2048 || !RSA.includes(alg)))) return undefined;
  return publicKeyOf(KeyObject.from(key), [alg]);
}

/** A JWK whose `use`, `key_ops` or `alg` narrow what it verifies keeps to them; a private JWK is not a public key. */
function jwkOf(jwk: PublicJwk) {
  const { use, key_ops: ops, alg, d } = jwk as PublicJwk & { use?: unknown; key_ops?: unknown; d?: unknown };
  if (d !== undefined || (use !== undefined && use !== 'sig') || (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify')))) return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch {
    return undefined;
  }
  const algorithms = algorithmsOf(key);
  return publicKeyOf(key, alg === undefined ? algorithms : algorithms.filter((one) => one === alg));
}

/** The key fast-jwt verifies with for a secret or public key source (a JWKS's keys come one by one, from jose). */
export function sourceKey(source: Extract<KeySource, { kind: 'secret' | 'public' }>): FastKey {
  return source.kind === 'secret' ? source.bytes : source.key;
}
