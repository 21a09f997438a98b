import { KeyObject, webcrypto } from 'node:crypto';
import { createRemoteJWKSet, importJWK, type JWK, type JWTVerifyGetKey } from 'jose';
import { discoverJwksUri } from './discovery';
import type { JwtSettings, KeySource } from './options';

type CryptoKey = webcrypto.CryptoKey;
type VerifyKey = CryptoKey | Uint8Array;

/**
 * How the guard finds the key of a token, made once: a secret or public key is imported once per algorithm (a
 * `CryptoKey`, so jose converts nothing per request); a JWKS is jose's `createRemoteJWKSet` (cached, an unknown
 * `kid` refetches it once the cooldown has passed, concurrent requests share one fetch); discovery finds the
 * `jwks_uri` once, at the first token, then does the same.
 */
export function keyResolver(settings: JwtSettings): JWTVerifyGetKey {
  const { source } = settings;
  if (source.kind === 'jwks') return remoteKeys(source.url, settings);
  if (source.kind === 'discovery') return discoveredKeys(source.issuer, settings);
  return importedKeys(source);
}

function importedKeys(source: Extract<KeySource, { kind: 'secret' | 'public' }>): JWTVerifyGetKey {
  // `jwtVerify` checks the algorithm against the allow-list before it asks for the key, so `alg` here is allowed.
  const keys = new Map<string, VerifyKey | Promise<VerifyKey>>();
  return (header) => {
    const alg = header.alg!;
    let key = keys.get(alg);
    if (key === undefined) {
      const imported = importKey(source, alg);
      keys.set(alg, imported);
      // Once imported, later tokens get the key itself, not a promise of it.
      imported.then((value) => keys.set(alg, value), () => keys.delete(alg));
      key = imported;
    }
    return key;
  };
}

async function importKey(source: Extract<KeySource, { kind: 'secret' | 'public' }>, alg: string): Promise<VerifyKey> {
  if (source.kind === 'secret') {
    const hash = `SHA-${alg.slice(2)}`;
    return webcrypto.subtle.importKey('raw', source.bytes, { name: 'HMAC', hash }, false, ['verify']);
  }
  const { key } = source;
  if (key instanceof KeyObject) return importJWK(key.export({ format: 'jwk' }) as JWK, alg) as Promise<VerifyKey>;
  if (isCryptoKey(key)) return key;
  return importJWK(key as JWK, alg) as Promise<VerifyKey>;
}

function isCryptoKey(key: unknown): key is CryptoKey {
  // Node 20 has the class only as a global (not on `webcrypto`); @types/node types it there.
  const CryptoKeyClass = (globalThis as { CryptoKey?: new () => CryptoKey }).CryptoKey;
  return CryptoKeyClass !== undefined && key instanceof CryptoKeyClass;
}

function remoteKeys(url: URL, settings: JwtSettings): JWTVerifyGetKey {
  return createRemoteJWKSet(url, { cooldownDuration: settings.jwksCooldown, timeoutDuration: settings.fetchTimeout });
}

/**
 * Discovery at the first token, its outcome kept: the JWKS once found; a failure for `jwksCooldown` (the
 * requests meanwhile are refused without a fetch), then the next token tries again.
 */
function discoveredKeys(issuer: string, settings: JwtSettings): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  let failedAt = 0;
  return async (header, token) => {
    if (keys === undefined || (failedAt && Date.now() - failedAt >= settings.jwksCooldown)) {
      failedAt = 0;
      keys = discoverJwksUri(issuer, settings.fetchTimeout).then((uri) => remoteKeys(uri, settings));
      keys.catch(() => (failedAt = Date.now()));
    }
    return (await keys)(header, token);
  };
}
