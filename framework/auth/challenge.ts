import type { TrellisError } from '../framework-error';

// RFC 6750 §3: `WWW-Authenticate: Bearer realm="...", error="...", error_description="...", scope="..."`. The values
// are quoted-strings; none holds text of the request (a token is never echoed), and each is checked or escaped so
// the header never carries CR/LF or a character `writeHead` refuses.

/** The realm option checked: printable ASCII (it is sent in every challenge). */
export function checkRealm(realm: unknown, fail: (option: string, reason: string) => TrellisError): string | undefined {
  if (realm === undefined) return undefined;
  if (typeof realm !== 'string' || !/^[\x20-\x7E]+$/.test(realm)) throw fail('realm', 'give printable ASCII text, e.g. "tasks"');
  return realm;
}

/** `value` as a quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, anything but printable ASCII dropped. */
export function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7E]/g, '').replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The challenges of one guard, built once: `Bearer` (or `Bearer realm="..."`) for a request without a token,
 * `Bearer ..., error="invalid_token", error_description="..."` for a refused one (one per description, cached),
 * `Bearer ..., error="insufficient_scope", scope="..."` for a token that lacks scopes.
 *
 * @example
 * ```ts
 * const challenges = new Challenges('Bearer', 'tasks');
 * challenges.missing;                          // Bearer realm="tasks"
 * challenges.invalid('The token has expired'); // Bearer realm="tasks", error="invalid_token", error_description="The token has expired"
 * ```
 */
export class Challenges {
  /** For a request without credentials (RFC 6750 §3.1: no error code). */
  readonly missing: string;
  readonly #prefix: string;
  readonly #invalid = new Map<string, string>();

  constructor(scheme: string, realm: string | undefined) {
    this.missing = realm === undefined ? scheme : `${scheme} realm=${quoted(realm)}`;
    this.#prefix = realm === undefined ? `${scheme} ` : `${this.missing}, `;
  }

  /** A refused token: `error="invalid_token"` with `description`, one of the guard's fixed messages. */
  invalid(description: string): string {
    let challenge = this.#invalid.get(description);
    if (challenge === undefined) {
      challenge = `${this.#prefix}error="invalid_token", error_description=${quoted(description)}`;
      this.#invalid.set(description, challenge);
    }
    return challenge;
  }

  /** A token without the scopes `needed` (checked scope names, RFC 6749 §3.3). */
  insufficient(needed: readonly string[]): string {
    return `${this.#prefix}error="insufficient_scope", error_description="The token lacks a scope this route needs", scope=${quoted(needed.join(' '))}`;
  }
}
