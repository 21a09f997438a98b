import type { User } from '../request';
import { grantedScopes } from './token-scopes';

/** A token jwtAuth has verified: its claims (frozen: every request with this token gets this object) and scopes. */
export interface Verified {
  user: Readonly<User>;
  scopes: readonly string[];
}

interface Entry extends Verified {
  /** When the entry stops serving (ms): the token's `exp` (with the clock tolerance), or the cache's TTL, the earlier. */
  until: number;
}

/**
 * The tokens verified lately, so a client sending the same token again is not verified again (fast-jwt's verifier
 * offers the same cache): keyed by the whole token, signature included, so a hit is the very token that passed.
 * An entry serves until the token expires or `ttl` has passed since it was verified, whichever is first: a key
 * removed from a JWKS stops accepting its tokens within `ttl`. At most `max` entries (the oldest leaves first).
 * Only verified tokens enter: a flood of bad tokens never evicts good ones.
 *
 * @example
 * ```ts
 * const cache = new VerifiedTokens(1000, 60_000, 0);
 * cache.remember(token, claims, Date.now());
 * cache.recall(token, Date.now()); // { user, scopes } until it expires
 * ```
 */
export class VerifiedTokens {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly max: number,
    readonly ttl: number,
    readonly clockTolerance: number,
  ) {}

  recall(token: string, now: number): Verified | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (now < entry.until) return entry;
    this.#entries.delete(token);
    return undefined;
  }

  /** Freezes the claims, reads the scopes once, and keeps them (when the cache holds any entry). */
  remember(token: string, claims: User, now: number): Verified {
    const user = deepFreeze(claims);
    const verified: Entry = { user, scopes: Object.freeze(grantedScopes(user)), until: 0 };
    if (this.max === 0) return verified;
    const expires = typeof user.exp === 'number' ? (user.exp + this.clockTolerance) * 1000 : Infinity;
    verified.until = Math.min(expires, now + this.ttl);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, verified);
    return verified;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
