import { TrellisError } from '../framework-error';
import type { Request } from '../request';
import { positiveCount, windowMs } from './window';

/**
 * One rate limit: `limit` requests per `window` for each key. The options of `@RateLimit(...)` and of
 * `rateLimit(...)`'s global limit.
 *
 * @example
 * ```ts
 * const perUser: RateLimitOptions = { limit: 5, window: '1h', key: (request) => request.user?.sub, name: 'exports' };
 * ```
 */
export interface RateLimitOptions {
  /** Requests allowed per key in one window. */
  limit: number;
  /** `'30s'`, `'1m'` (the default), `'1h'`, or milliseconds (from 1 s to 7 days). */
  window?: string | number;
  /**
   * Whom a request counts for: a string (`request.user?.sub`), or undefined to count it by the client's address
   * (the default). A limit with a key function runs after the route's guards, so `request.user` is known; the
   * requests the guards refuse are counted by address before them, and an address past the limit with them is
   * answered 429 before the guards run.
   */
  key?: (request: Request) => string | undefined;
  /**
   * The counter's name, in the `RateLimit` headers and the store's keys: routes sharing a name share one count per
   * key. By default a handler's `@RateLimit` counts for that route (`TaskRouter.create`), a router class's for all its
   * routes (`TaskRouter`), the global limit for every route it covers (`default`).
   */
  name?: string;
}

/** A checked {@link RateLimitOptions}, with the `RateLimit-Policy` header it sends. */
export interface RatePolicy {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly key: ((request: Request) => string | undefined) | undefined;
  /** `"default";q=100;w=60` */
  readonly header: string;
}

const NAME = /^[A-Za-z0-9._:-]{1,64}$/;

/** `options` checked (`TRELLIS_ERR_RATE_LIMIT_OPTION`), named `fallbackName` unless they name themselves. */
export function ratePolicy(options: RateLimitOptions, fallbackName: string): RatePolicy {
  if (options === null || typeof options !== 'object') throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'options', 'give { limit, window?, key?, name? } or false');
  const limit = positiveCount(options.limit);
  const window = windowMs(options.window ?? '1m');
  if (options.key !== undefined && typeof options.key !== 'function') throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'key', 'a function (request) => string is expected');
  const name = options.name ?? fallbackName;
  if (!NAME.test(name)) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'name', `${JSON.stringify(name)} is not 1 to 64 letters, digits and . _ : -`);
  return { name, limit, windowMs: window, key: options.key, header: `"${name}";q=${limit};w=${Math.ceil(window / 1000)}` };
}
