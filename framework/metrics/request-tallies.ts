import type { ServerResponse } from 'node:http';
import { HTTP_METHODS } from '../core/types';
import type { Request } from '../request';

/** The `route` label of a request no route matched (404, 405, an automatic OPTIONS, a refused request). */
export const UNMATCHED_ROUTE = '__unmatched__';
/** The `method` label of a method no route can declare (PROPFIND, TRACE...). */
export const OTHER_METHOD = '_OTHER';
/** The `status_code` label of a request whose client left before its response was sent (nginx's 499). */
export const CLIENT_CLOSED = 499;

// The method labels: the methods a route can declare, and the one label of every other.
const METHOD_LABELS: ReadonlySet<string> = new Set([...HTTP_METHODS, OTHER_METHOD]);

/** The requests of one label set: how many, their total duration, and how many fell in each bucket. */
export interface Tally {
  readonly labels: Readonly<{ method: string; route: string; status_code: string }>;
  count: number;
  /** Seconds. */
  sum: number;
  /** Per bucket (not cumulative); a request above the last bound is only in `count`. */
  readonly buckets: Float64Array;
}

/**
 * The request counts and durations of one app, by route pattern, method and status. A request costs two clock
 * reads, a `close` listener, three map lookups and a few additions: prom-client's `observe` hashes the label
 * values into a string on every call (about 1 µs, see bench/micro/metrics-observe.js), so the tallies are kept
 * here and handed to prom-client's registry only when it is scraped ({@link TallyMetric}).
 *
 * The label sets are bounded: routes are the app's patterns (every unmatched path is {@link UNMATCHED_ROUTE}),
 * methods the seven a route can have (others are {@link OTHER_METHOD}), statuses 100-599.
 */
export class RequestTallies {
  readonly bounds: readonly number[];
  readonly #routes = new Map<string, Map<string, Map<number, Tally>>>();

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
  }

  /**
   * Times `request` until its response is written (the `close` of `res`: after the last byte went to the
   * socket, or when the client left) and tallies it under the route it matched by then.
   */
  track(request: Request, res: ServerResponse): void {
    const start = performance.now();
    res.on('close', () => {
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED;
      this.observe(request.route ?? UNMATCHED_ROUTE, request.method, status, (performance.now() - start) / 1000);
    });
  }

  /** Adds one request of `seconds` to its tally. */
  observe(route: string, method: string, status: number, seconds: number): void {
    const tally = this.#tally(route, method, status);
    tally.count++;
    tally.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        tally.buckets[i]++;
        return;
      }
    }
  }

  /** Every tally so far. */
  *tallies(): IterableIterator<Tally> {
    for (const methods of this.#routes.values()) for (const statuses of methods.values()) yield* statuses.values();
  }

  clear(): void {
    this.#routes.clear();
  }

  #tally(route: string, method: string, status: number): Tally {
    let methods = this.#routes.get(route);
    if (methods === undefined) this.#routes.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (statuses === undefined) {
      // Only the known methods become keys: an unknown one is looked up again each time (any string can reach
      // the listener outside Node's parser, as through light-my-request).
      if (!METHOD_LABELS.has(method)) return this.#tally(route, OTHER_METHOD, status);
      methods.set(method, (statuses = new Map()));
    }
    let tally = statuses.get(status);
    if (tally === undefined) {
      tally = { labels: { method, route, status_code: String(status) }, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length) };
      statuses.set(status, tally);
    }
    return tally;
  }
}
