import { KeyObject, webcrypto } from 'node:crypto';
import { createRemoteJWKSet, customFetch, importJWK, type FetchImplementation, type JWK, type JWTVerifyGetKey } from 'jose';
import { discoverJwksUri } from './discovery';
import { fetchJson, isKeySet, KeysUnavailable } from './key-fetch';
import { KeyOutage } from './key-outage';
import type { JwtSettings, KeySource } from './options';

type CryptoKey = webcrypto.CryptoKey;
type VerifyKey = CryptoKey | Uint8Array;

/**
 * Where jose finds a token's key (`getKey`), and for keys fetched from elsewhere (a JWKS, discovery) how their
 * fetches fare (`outage`: what the guard logs, and when it may fetch again).
 */
export interface KeyResolver {
  getKey: JWTVerifyGetKey;
  outage: KeyOutage | undefined;
}

/**
 * How the guard finds the key of a token, made once: a secret or public key is imported once per algorithm (a
 * `CryptoKey`, so jose converts nothing per request); a JWKS is jose's `createRemoteJWKSet` (cached, an unknown
 * `kid` refetches it once the cooldown has passed, concurrent requests share one fetch); discovery finds the
 * `jwks_uri` once, at the first token, then does the same. A failed fetch of either is retried once
 * `jwksCooldown` has passed; the tokens meanwhile are refused without a fetch.
 */
export function keyResolver(settings: JwtSettings): KeyResolver {
  const { source } = settings;
  if (source.kind === 'secret' || source.kind === 'public') return { getKey: importedKeys(source), outage: undefined };
  const outage = new KeyOutage(settings.jwksCooldown);
  const getKey = source.kind === 'jwks' ? remoteKeys(source.url, settings, outage) : discoveredKeys(source.issuer, settings, outage);
  return { getKey, outage };
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

/** Whether `key` is a WebCrypto `CryptoKey`. */
export function isCryptoKey(key: unknown): key is CryptoKey {
  // Node 20 has the class only as a global (not on `webcrypto`); @types/node types it there.
  const CryptoKeyClass = (globalThis as { CryptoKey?: new () => CryptoKey }).CryptoKey;
  return CryptoKeyClass !== undefined && key instanceof CryptoKeyClass;
}

function remoteKeys(url: URL, settings: JwtSettings, outage: KeyOutage): JWTVerifyGetKey {
  return createRemoteJWKSet(url, {
    cooldownDuration: settings.jwksCooldown,
    timeoutDuration: settings.fetchTimeout,
    [customFetch]: keySetFetch(outage, settings.fetchTimeout),
  });
}

/**
 * The fetch jose's `createRemoteJWKSet` calls (its `customFetch` option): {@link fetchJson}, the body checked to
 * be a key set, each outcome told to `outage`; while `outage` holds a recent failure it answers that failure at
 * once, without a request (jose itself would fetch again for every token while it has no keys).
 */
function keySetFetch(outage: KeyOutage, timeout: number): FetchImplementation {
  return async (url, { headers, signal }) => {
    const held = outage.held();
    if (held !== undefined) throw held;
    try {
      const document = await fetchJson(url, { headers, signal }, timeout);
      if (!isKeySet(document)) throw new KeysUnavailable(`GET ${url} answered 200 with a body that is not a JSON Web Key Set`);
      outage.succeeded();
      return Response.json(document);
    } catch (error) {
      outage.failed(error as KeysUnavailable);
      throw error;
    }
  };
}

/**
 * Discovery at the first token, its outcome kept: the JWKS once found; a failure is retried once `jwksCooldown`
 * has passed (the requests meanwhile are refused without a fetch).
 */
function discoveredKeys(issuer: string, settings: JwtSettings, outage: KeyOutage): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    if (keys === undefined) {
      const held = outage.held();
      if (held !== undefined) throw held;
      const found = discoverJwksUri(issuer, settings.fetchTimeout).then((uri) => remoteKeys(uri, settings, outage));
      keys = found;
      // Registered before any request awaits it: the outage knows of the failure before the refusals are counted.
      found.catch((error: KeysUnavailable) => {
        keys = undefined;
        outage.failed(error);
      });
    }
    return (await keys)(header, token);
  };
}
