// The characters a path may carry as they are (RFC 3986 unreserved, and the sub-delimiters `! ' ( ) *`) that
// decodeURI decodes: an escape of one of them changes nothing in what the path means to the router.
const PLAIN = /[A-Za-z0-9\-._~!'()*]/;

/**
 * Whether a path spells with a percent-escape a character it could carry as it is (`%61` for `a`, `%2e` for
 * `.`). Express matches its routes and `app.use(path, ...)` guards against the path as received, so a trellis
 * app mounted in Express refuses such a path rather than match its decoded form behind a guard that did not
 * see it (`/api/%61dmin` passes `use('/api/admin', guard)` unseen). Escapes that are needed (`%20`, `%2F`,
 * `%C3%A9`) are not of these.
 *
 * @example
 * ```ts
 * escapesPlainCharacter('/%61dmin');       // true
 * escapesPlainCharacter('/caf%C3%A9');     // false
 * ```
 */
export function escapesPlainCharacter(path: string): boolean {
  for (let i = path.indexOf('%'); i >= 0; i = path.indexOf('%', i + 1)) {
    const code = Number.parseInt(path.slice(i + 1, i + 3), 16);
    if (code < 0x80 && PLAIN.test(String.fromCharCode(code))) return true;
  }
  return false;
}
