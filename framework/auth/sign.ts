import { SignJWT } from 'jose';
import { TrellisError } from '../framework-error';

/**
 * What `signToken` puts in the token.
 *
 * @example
 * ```ts
 * const options: SignTokenOptions = { secret: process.env.JWT_SECRET!, scopes: ['tasks:write'], subject: 'ada', expiresIn: '1h' };
 * ```
 */
export interface SignTokenOptions {
  /** The HS256 secret the API verifies with (at least 32 bytes). */
  secret: string | Uint8Array;
  /** Granted scopes, sent as the `scope` claim (space-separated). */
  scopes?: string[];
  /** The `sub` claim. */
  subject?: string;
  /** How long the token is valid: seconds, or a span such as `'15m'`, `'2h'`, `'7d'`; `'1h'` by default. */
  expiresIn?: string | number;
  /** More claims (`{ tenant: 'acme' }`); the options above win over the same names here. */
  claims?: Record<string, unknown>;
  issuer?: string;
  audience?: string | string[];
}

/**
 * Mints an HS256 token, as an identity provider would: for tests, scripts and `trellis token`, never for users'
 * logins (use your identity provider). The token is verified by `jwtAuth({ secret })` with the same secret.
 *
 * @example
 * ```ts
 * const token = await signToken({ secret: process.env.JWT_SECRET!, scopes: ['tasks:write'], subject: 'ada' });
 * await client.post('/tasks', { json: { title: 'x' }, headers: { authorization: `Bearer ${token}` } });
 * ```
 */
export async function signToken(options: SignTokenOptions): Promise<string> {
  const { secret, scopes, subject, expiresIn = '1h', claims, issuer, audience } = options;
  const fail = (option: string, reason: string) => new TrellisError('TRELLIS_ERR_AUTH_OPTION', 'signToken', option, reason);
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(key instanceof Uint8Array) || key.byteLength < 32) throw fail('secret', 'give at least 32 bytes (a string or Uint8Array)');
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...claims, ...(scopes ? { scope: scopes.join(' ') } : {}) }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now);
  if (subject !== undefined) jwt.setSubject(subject);
  if (issuer !== undefined) jwt.setIssuer(issuer);
  if (audience !== undefined) jwt.setAudience(audience);
  if (typeof expiresIn === 'number') {
    if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw fail('expiresIn', 'give a positive number of seconds or a span such as "1h"');
    jwt.setExpirationTime(now + expiresIn);
  } else {
    try {
      jwt.setExpirationTime(expiresIn);
    } catch {
      throw fail('expiresIn', `${JSON.stringify(expiresIn)} is not a span such as "15m", "2h" or "7d"`);
    }
  }
  return jwt.sign(key);
}
