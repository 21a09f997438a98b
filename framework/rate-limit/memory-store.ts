import { positiveCount } from './window';
import type { RateLimitHit, RateLimitStore } from './store';

/** How {@link memoryStore} counts. */
export interface MemoryStoreOptions {
  /** Keys counted at once, at most: past it the oldest window is dropped (its key starts again from 0). 100,000 by default (about 15 MB). */
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

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A store counting in this process, in fixed windows (as @fastify/rate-limit's default does): each worker of
 * `trellis run --workers 4` counts on its own, so use `redisStore()` when there is more than one process. Memory
 * is bounded: windows are kept in the order they started, expired ones are dropped from the oldest as hits come,
 * and past `maxKeys` the oldest window is dropped even if it has not ended, so a flood of new keys (spoofed
 * addresses) cannot grow it without bound.
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
  const now = options.now ?? Date.now;
  // Insertion order is the order windows started: a key whose window restarts is moved to the end.
  const windows = new Map<string, Window>();

  const sweep = (at: number) => {
    for (const [key, window] of windows) {
      if (window.resetAt > at) break;
      windows.delete(key);
    }
  };

  return {
    get size() {
      return windows.size;
    },
    hit(key: string, windowMs: number): RateLimitHit {
      const at = now();
      let window = windows.get(key);
      if (window && window.resetAt <= at) {
        windows.delete(key);
        window = undefined;
      }
      if (!window) {
        sweep(at);
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        window = { count: 0, resetAt: at + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetMs: window.resetAt - at };
    },
  };
}
