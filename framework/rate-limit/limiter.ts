import { createHash } from 'node:crypto';
import { errorResponse } from '../error-envelope';
import { Middleware, type CallNext } from '../middleware';
import type { Request } from '../request';
import { Response } from '../response';
import { SYNC_NEXT } from '../symbols';
import type { AddressOf } from './client-address';
import type { StoreOutage } from './outage';
import type { RatePolicy } from './policy';
import type { RateLimitHit, RateLimitStore } from './store';
import type { WindowRing } from './window-ring';

/** What every limit of one `rateLimit()` plug-in shares. */
export interface LimiterContext {
  store: RateLimitStore;
  addressOf: AddressOf;
  onStoreError: 'open' | 'closed';
  outage: StoreOutage;
  /** The addresses locked out of a keyed limit's routes in this process, by store key, until their window ends (see `RefusalLimiter`). */
  lockouts: WindowRing;
}

// Addresses are at most 45 characters; a longer key (a user's, a spoofed header's) is hashed, so whatever a
// client sends, the store sees at most this many characters.
const MAX_KEY = 64;

/**
 * The middleware of one limit on one route: counts the request under its key, answers 429 with `Retry-After` past
 * the limit, and sets `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10) on every answer.
 */
export class RateLimiter extends Middleware {
  /** @internal */
  readonly [SYNC_NEXT] = true;
  // A keyed limit's: the requests that got past the route's middleware to it. By `Request`, not by Node request:
  // the requests of one WebSocket's messages share their upgrade's.
  readonly #reached: WeakSet<Request> | undefined;

  constructor(
    private readonly policy: RatePolicy,
    private readonly context: LimiterContext,
  ) {
    super();
    this.#reached = policy.key ? new WeakSet() : undefined;
  }

  /** Whether `request` got past the route's middleware to this (keyed) limit, and so was counted here. */
  reached(request: Request): boolean {
    return this.#reached?.has(request) ?? false;
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    const { policy, context } = this;
    let own: string | undefined;
    if (policy.key) {
      this.#reached!.add(request);
      own = policy.key(request);
    }
    // A key function's keys and addresses never meet: `u` and `a` keep a user named 10.0.0.1 apart from that address.
    const key = own == null || own === '' ? addressKey(policy, context, request) : `${policy.name}:u:${boundKey(String(own))}`;
    let hit: RateLimitHit | Promise<RateLimitHit>;
    try {
      hit = context.store.hit(key, policy.windowMs);
    } catch (error) {
      return this.#unavailable(error, request, callNext);
    }
    if (hit instanceof Promise) {
      return hit.then(
        (counted) => this.#decide(counted, request, callNext),
        (error: unknown) => this.#unavailable(error, request, callNext),
      );
    }
    return this.#decide(hit, request, callNext);
  }

  #decide(hit: RateLimitHit, request: Request, callNext: CallNext): Response | Promise<Response> {
    const { policy } = this;
    this.context.outage.succeeded();
    if (hit.count > policy.limit) return tooManyRequests(policy, hit.resetMs);
    const remaining = remainingHeader(policy, hit);
    const mark = (response: Response): Response => {
      response.headers.set('ratelimit-policy', policy.header);
      response.headers.set('ratelimit', remaining);
      return response;
    };
    // SYNC_NEXT: a response ready at once (a GET's) stays synchronous.
    const response = callNext(request) as Response | Promise<Response>;
    return response instanceof Response ? mark(response) : response.then(mark);
  }

  #unavailable(error: unknown, request: Request, callNext: CallNext): Response | Promise<Response> {
    this.context.outage.failed(error);
    if (this.context.onStoreError === 'open') return callNext(request);
    return errorResponse(503, 'Service Unavailable', { 'retry-after': '1' });
  }
}

/** The store key counting `request` by its client's address under `policy`. */
export function addressKey(policy: RatePolicy, context: LimiterContext, request: Request): string {
  return `${policy.name}:a:${boundKey(context.addressOf(request.raw))}`;
}

/** `429 {"error":"Too Many Requests"}` past `policy`, its window ending in `resetMs`. */
export function tooManyRequests(policy: RatePolicy, resetMs: number): Response {
  const seconds = secondsOf(resetMs);
  return errorResponse(429, 'Too Many Requests', {
    'retry-after': String(seconds),
    'ratelimit-policy': policy.header,
    ratelimit: `"${policy.name}";r=0;t=${seconds}`,
  });
}

/** The `RateLimit` header after `hit` (at most `policy.limit`). */
export function remainingHeader(policy: RatePolicy, hit: RateLimitHit): string {
  return `"${policy.name}";r=${policy.limit - hit.count};t=${secondsOf(hit.resetMs)}`;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function boundKey(key: string): string {
  if (key.length <= MAX_KEY) return key;
  return `#${createHash('sha256').update(key).digest('base64url')}`;
}
