/** Delay before replacing a worker after the first crash of a streak; doubled per crash up to {@link MAX_RESTART_MS}. */
export const FIRST_RESTART_MS = 100;
export const MAX_RESTART_MS = 5_000;
/** A worker that served this long before it died ends the crash streak. */
export const STABLE_MS = 10_000;

/**
 * How long the cluster primary waits before replacing a worker that died, like pm2's
 * `--exp-backoff-restart-delay`: 100 ms after a crash, doubling with each crash in a row up to 5 s; a worker
 * that served 10 s before dying starts a new streak. A worker that crashes on its first request thus costs a fork every
 * 5 s at most, not a fork loop.
 *
 * @example
 * ```ts
 * const backoff = new RestartBackoff();
 * backoff.next(50);     // { delayMs: 100, streak: 1 }
 * backoff.next(80);     // { delayMs: 200, streak: 2 }
 * backoff.next(60_000); // { delayMs: 100, streak: 1 }
 * ```
 */
export class RestartBackoff {
  #streak = 0;

  /** The delay before replacing a worker that served `servedMs` before it died, and the crashes in a row so far. */
  next(servedMs: number): { delayMs: number; streak: number } {
    this.#streak = servedMs >= STABLE_MS ? 1 : this.#streak + 1;
    const delayMs = Math.min(FIRST_RESTART_MS * 2 ** Math.min(this.#streak - 1, 30), MAX_RESTART_MS);
    return { delayMs, streak: this.#streak };
  }
}
