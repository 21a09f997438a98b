import { parse, serialize, type SerializeOptions } from 'cookie';
import { TrellisError } from './framework-error';

/**
 * Attributes of a cookie set with `response.setCookie` (the `cookie` package's options): `maxAge` (seconds),
 * `expires`, `domain`, `path` (`/` unless given), `secure`, `httpOnly`, `sameSite`, `partitioned`,
 * `priority`, and `encode` (`encodeURIComponent` unless given).
 */
export type CookieOptions = SerializeOptions;

/**
 * The cookies of a `Cookie` header by name (the first of a repeated name wins), in an object without a
 * prototype (`cookies.toString` is no cookie); no header, no cookies.
 */
export function parseCookies(header: string | undefined): Record<string, string | undefined> {
  // `cookie.parse` never throws on a string: a value whose %-escapes are malformed is kept as sent.
  return parse(typeof header === 'string' ? header : '');
}

/**
 * A `Set-Cookie` value. A name or value the header cannot carry (a space, `;`, a control character, a
 * broken UTF-16 string) or an invalid attribute throws `TRELLIS_ERR_COOKIE` here, where the cookie is set,
 * never later when the response is written.
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  try {
    return serialize(name, value, { ...options, path: options.path ?? '/' });
  } catch (error) {
    throw new TrellisError('TRELLIS_ERR_COOKIE', JSON.stringify(String(name)), (error as Error).message);
  }
}
