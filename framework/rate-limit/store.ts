/** What a {@link RateLimitStore} answers for one hit: the key's count in its window, this hit included, and when the window ends. */
export interface RateLimitHit {
  /** Hits of the key in the current window, counting this one. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from 0. */
  resetMs: number;
}

/**
 * Where a rate limit counts: fixed windows per key (the first hit of a key starts its window of `windowMs`; the
 * count resets when it ends). `memoryStore()` counts in the process, `redisStore()` in Redis for every worker and
 * instance; a store of your own implements `hit` (and `close` if it holds a connection). A store that throws or
 * rejects is "unavailable": the limit lets requests through or answers 503, as `onStoreError` says.
 *
 * @example
 * ```ts
 * const counts = new Map<string, number>();
 * const naive: RateLimitStore = { hit: (key) => ({ count: counts.set(key, (counts.get(key) ?? 0) + 1).get(key)!, resetMs: 60_000 }) };
 * ```
 */
export interface RateLimitStore {
  /** Counts one hit of `key` (at most 200 characters: the limiter bounds keys) in a window of `windowMs`. */
  hit(key: string, windowMs: number): RateLimitHit | Promise<RateLimitHit>;
  /** Called when the app starts (a connection to open). */
  start?(): unknown;
  /** Called when the app stops (a connection to close). */
  close?(): unknown;
}
