import { fetchJson, KeysUnavailable } from './key-fetch';

/**
 * OpenID Connect discovery (OpenID Connect Discovery 1.0 §4): `GET {issuer}/.well-known/openid-configuration`,
 * whose `issuer` must be the one configured and whose `jwks_uri` is an http(s) URL. A redirect is not followed.
 *
 * @example
 * ```ts
 * const jwks = await discoverJwksUri('https://login.example.com', 5000); // URL of the key set
 * ```
 */
export async function discoverJwksUri(issuer: string, timeout: number): Promise<URL> {
  const where = discoveryUrl(issuer);
  const document = await fetchJson(where, { signal: AbortSignal.timeout(timeout), headers: { accept: 'application/json' } }, timeout);
  const { issuer: stated, jwks_uri: jwksUri } = (document ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
  if (typeof stated !== 'string' || stated.replace(/\/$/, '') !== issuer) {
    throw new KeysUnavailable(`${where} names issuer ${JSON.stringify(stated)}, not ${issuer}`);
  }
  let url: URL;
  try {
    url = new URL(String(jwksUri));
  } catch {
    throw new KeysUnavailable(`${where} has no jwks_uri URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KeysUnavailable(`${where} has no http(s) jwks_uri`);
  return url;
}

/** Where an issuer's discovery document is: `{issuer}/.well-known/openid-configuration`. */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}
