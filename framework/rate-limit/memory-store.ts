import type { RateLimitHit, RateLimitStore } from './store';
import { positiveCount } from './window';
import { WindowRing } from './window-ring';

/** How {@link memoryStore} counts. */
export interface MemoryStoreOptions {
  /** Keys counted at once, at most: past it the oldest window is dropped (its key starts again from 0). 100,000 by default: about 11 MB of heap once full, 15 MB once new keys keep pushing old ones out (keys of about 20 characters). */
  maxKeys?: number;
  /** The clock, in milliseconds (tests move it instead of sleeping). `Date.now` by default. */
  now?: () => number;
}

/** A {@link memoryStore}: counts at once (no promise), and tells how many keys it holds. */
export interface MemoryStore extends RateLimitStore {
  hit(key: string, windowMs: number): RateLimitHit;
  /** Keys counted now (at most `maxKeys`). */
  readonly size: number;
}

/**
 * A store counting in this process, in fixed windows (as @fastify/rate-limit's default does): each worker of
 * `trellis run --workers 4` counts on its own, so use `redisStore()` when there is more than one process. Memory
 * is bounded: windows are kept in the order they started, expired ones are dropped from the oldest as new windows
 * start, and past `maxKeys` the oldest window is dropped even if it has not ended, so a flood of new keys (spoofed
 * addresses) cannot grow it without bound. A hit costs the same at any number of keys (a map lookup; a new window
 * takes the next slot of a ring, so dropping the oldest never searches).
 *
 * @example
 * ```ts
 * import { memoryStore, rateLimit } from 'trellis/plugins';
 *
 * app.register(rateLimit({ limit: 100, window: '1m', store: memoryStore({ maxKeys: 10_000 }) }));
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxKeys = positiveCount(options.maxKeys ?? 100_000, 'maxKeys');
  return new WindowRing(maxKeys, options.now ?? Date.now);
}
