import type { Request } from '../request';
import { report } from '../report';
import type { KeysUnavailable } from './key-fetch';

interface Down {
  since: number;
  /** When the last fetch failed, and how. */
  lastAt: number;
  error: KeysUnavailable;
  /** Requests refused meanwhile. */
  refused: number;
}

type News = { begun: KeysUnavailable } | { endedAfter: number; refused: number };

/**
 * Whether the fetches of one guard's remote keys (its key set, its discovery document) are failing. An outage is
 * logged twice, by whichever request sees it first: an error when a fetch fails (its cause names the URL and the
 * status, or why nothing answered), a line when a fetch succeeds again (how long it lasted, how many requests
 * were refused). While it lasts, the endpoint is asked again at most once per `retryAfter` ms: the requests
 * between are refused at once with the last failure, so a flood of tokens never becomes a flood of fetches.
 *
 * @example
 * ```ts
 * const outage = new KeyOutage(30_000);
 * outage.failed(new KeysUnavailable('GET https://login.example.com/jwks.json answered 503'));
 * outage.held();        // that failure, for 30 s
 * outage.tell(request); // logs it, once
 * ```
 */
export class KeyOutage {
  #down: Down | undefined;
  #news: News[] = [];

  constructor(readonly retryAfter: number) {}

  /** The last failure, while the endpoint is not to be asked again yet. */
  held(): KeysUnavailable | undefined {
    const down = this.#down;
    return down !== undefined && Date.now() - down.lastAt < this.retryAfter ? down.error : undefined;
  }

  failed(error: KeysUnavailable): void {
    const now = Date.now();
    if (this.#down === undefined) {
      this.#down = { since: now, lastAt: now, error, refused: 0 };
      this.#news.push({ begun: error });
    } else {
      this.#down.lastAt = now;
      this.#down.error = error;
    }
  }

  succeeded(): void {
    const down = this.#down;
    if (down === undefined) return;
    this.#down = undefined;
    this.#news.push({ endedAfter: Date.now() - down.since, refused: down.refused });
  }

  /** A request refused because the keys were unavailable: counted for the line that ends the outage. */
  refused(): void {
    if (this.#down !== undefined) this.#down.refused++;
  }

  /** Whether something happened that is not logged yet. */
  get news(): boolean {
    return this.#news.length !== 0;
  }

  /** Logs what happened since the last call, with `request`'s logger (the request that saw it). */
  tell(request: Request): void {
    for (const news of this.#news.splice(0)) {
      if ('begun' in news) {
        report(request.log, request, 'the keys that verify tokens could not be fetched', news.begun);
        continue;
      }
      const { endedAfter, refused } = news;
      try {
        request.log.info({ downForMs: endedAfter, refused }, `the keys that verify tokens are available again, after ${(endedAfter / 1000).toFixed(1)} s; ${refused} requests were refused meanwhile`);
      } catch {
        // A logger that throws cannot break the request.
      }
    }
  }
}
