import { Middleware, type CallNext } from '../middleware';
import type { Request } from '../request';
import { Response } from '../response';
import { SYNC_NEXT } from '../symbols';
import { addressKey, remainingHeader, tooManyRequests, type LimiterContext, type RateLimiter } from './limiter';
import type { RatePolicy } from './policy';
import type { RateLimitHit } from './store';

/**
 * The address half of a keyed limit (`@RateLimit({ key })`), before the route's own middleware (its guards). The
 * keyed limit runs after the guards, so a request they refuse never reaches its key function: this counts such a
 * request (answered 4xx before the key function ran) by client address, under the limit's name, limit and window,
 * as a request whose key is undefined counts. Once an address has `limit` of them in a window, its requests to
 * the routes of that limit are answered 429 here, the guards not run, until the window ends: right credentials
 * from that address included, since nothing tells them apart before the guards run.
 *
 * The lockout is kept in this process (`context.lockouts`), so a request from an address in good standing costs
 * one map lookup here, never a store round trip. Another process sharing a Redis store learns of it at that
 * address's next refusal, which it answers 429 (the count is past the limit) and locks out in turn.
 */
export class RefusalLimiter extends Middleware {
  /** @internal */
  readonly [SYNC_NEXT] = true;

  constructor(
    private readonly policy: RatePolicy,
    private readonly context: LimiterContext,
    private readonly keyed: RateLimiter,
  ) {
    super();
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    const { lockouts } = this.context;
    if (lockouts.size > 0) {
      const locked = lockouts.msLeft(addressKey(this.policy, this.context, request));
      if (locked > 0) return tooManyRequests(this.policy, locked);
    }
    // SYNC_NEXT: a response ready at once stays synchronous.
    const response = callNext(request) as Response | Promise<Response>;
    return response instanceof Response ? this.#refused(request, response) : response.then((answered) => this.#refused(request, answered));
  }

  // Counts `response` by address when the route's middleware answered it with a 4xx before the keyed limit ran.
  #refused(request: Request, response: Response): Response | Promise<Response> {
    if (response.status < 400 || response.status > 499 || this.keyed.reached(request)) return response;
    const key = addressKey(this.policy, this.context, request);
    let hit: RateLimitHit | Promise<RateLimitHit>;
    try {
      hit = this.context.store.hit(key, this.policy.windowMs);
    } catch (error) {
      return this.#unavailable(error, response);
    }
    if (hit instanceof Promise) {
      return hit.then(
        (counted) => this.#counted(key, counted, response),
        (error: unknown) => this.#unavailable(error, response),
      );
    }
    return this.#counted(key, hit, response);
  }

  #counted(key: string, hit: RateLimitHit, response: Response): Response {
    const { policy, context } = this;
    context.outage.succeeded();
    if (hit.count >= policy.limit) context.lockouts.hit(key, Math.max(1, hit.resetMs));
    // Past the limit already: another process's refusals (a shared store) or a lockout this process let go.
    if (hit.count > policy.limit) return tooManyRequests(policy, hit.resetMs);
    response.headers.set('ratelimit-policy', policy.header);
    response.headers.set('ratelimit', remainingHeader(policy, hit));
    return response;
  }

  // The refusal stands as it is, whatever `onStoreError` says: it already refuses.
  #unavailable(error: unknown, response: Response): Response {
    this.context.outage.failed(error);
    return response;
  }
}
