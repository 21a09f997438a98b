import { rateLimitMarks } from '../decorators/rate-limit';
import { TrellisError } from '../framework-error';
import type { Plugin, PluginHost } from '../plugin/plugin';
import { RedisSettings, redisUrlOf } from '../redis/settings';
import type { RouteInfo } from '../routing/route-info';
import { clientAddress, type TrustProxy } from './client-address';
import { ipv6Subnet } from './ipv6-subnet';
import { RateLimiter, type LimiterContext } from './limiter';
import { memoryStore } from './memory-store';
import { documentLimits } from './openapi';
import { StoreOutage } from './outage';
import { ratePolicy, type RateLimitOptions, type RatePolicy } from './policy';
import { redisStore } from './redis-store';
import { RefusalLimiter } from './refusals';
import { RateLimitSettings } from './settings';
import type { RateLimitStore } from './store';
import { WindowRing } from './window-ring';

// Addresses locked out of keyed limits at once in one process, at most (about 1.5 MB); past it the oldest lockout
// ends early, and that address's next refusal locks it out again.
const MAX_LOCKOUTS = 10_000;

/** The options of {@link rateLimit}: the global limit and how every limit counts. */
export interface RateLimitPluginOptions extends Partial<RateLimitOptions> {
  /** 100 by default. */
  limit?: number;
  /** `false`: no global limit, only the routes with `@RateLimit(...)` are limited. `true` by default. */
  global?: boolean;
  /**
   * Where to count: `memoryStore()` (the default), `redisStore({ url })`, a store of your own, or as config.yaml
   * says it: `'memory'`, `'redis'` (at the `redis:` section's `url`), `'auto'` (Redis when that URL is set, else memory).
   */
  store?: RateLimitStore | 'memory' | 'redis' | 'auto';
  /** Prefix of the Redis keys when `store` is `'redis'` or `'auto'`. `trellis:rl:` by default. */
  prefix?: string;
  /** When the store cannot answer: `'open'` (the default) lets requests through uncounted, `'closed'` answers 503. Logged once per outage either way. */
  onStoreError?: 'open' | 'closed';
  /** Whom `X-Forwarded-For` is believed from; see {@link TrustProxy}. `false` by default. */
  trustProxy?: TrustProxy;
  /**
   * IPv6 clients are counted per network of this prefix length (one host is handed a whole /64 or /56); `128` or
   * `false` counts each address alone. 56 by default (as express-rate-limit 8): `2001:db8:0:1ab::7` counts as `2001:db8:0:100::/56`.
   */
  ipv6Subnet?: number | false;
}

/**
 * Rate limits as a plug-in: a global limit on every route but the built-in ones (docs pages, health probes,
 * metrics, static files: a probe is never refused), and `@RateLimit(...)` per route or router over it
 * (`@RateLimit(false)` exempts). Past its limit a client gets 429 `{ "error": "Too Many Requests" }` with
 * `Retry-After`; every limited answer carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10),
 * and the OpenAPI document gives each limited route its 429. Fixed windows, counted in memory by default or in
 * Redis for every worker and instance. With no options it reads config.yaml's `rate_limit:` (and `redis.url`).
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { rateLimit, redisStore } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(
 *   rateLimit({ limit: 100, window: '1m', store: redisStore({ url: 'redis://127.0.0.1:6379' }), trustProxy: 1 }),
 * );
 * ```
 */
export function rateLimit(options?: RateLimitPluginOptions): Plugin {
  return {
    name: 'rate-limit',
    register(host) {
      const given = options ?? fromSettings(host);
      const store = typeof given.store === 'string' ? namedStore(host, given.store, given.prefix) : (given.store ?? memoryStore());
      const onStoreError = given.onStoreError ?? 'open';
      if (onStoreError !== 'open' && onStoreError !== 'closed') throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'onStoreError', `${String(onStoreError)} is not 'open' or 'closed'`);
      if (typeof store?.hit !== 'function') throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'store', 'a RateLimitStore (memoryStore(), redisStore(...)) is expected');
      const global = given.global === false ? undefined : ratePolicy({ limit: 100, ...given }, given.name ?? 'default');
      const context: LimiterContext = {
        store,
        addressOf: ipv6Subnet(clientAddress(given.trustProxy ?? false), given.ipv6Subnet ?? 56),
        onStoreError,
        outage: new StoreOutage(host.app.logger, onStoreError),
        // A memory store's clock (a test's, moved to end windows) ends lockouts too.
        lockouts: new WindowRing(MAX_LOCKOUTS, store instanceof WindowRing ? store.now : Date.now),
      };
      limitRoutes(host, context, global);
      if (store.start) host.onStartup(() => store.start!());
      if (store.close) host.onShutdown(() => store.close!());
    },
  };
}

function limitRoutes(host: PluginHost, context: LimiterContext, global: RatePolicy | undefined): void {
  const policies = new Map<RouteInfo, RatePolicy | undefined>();
  const limiters = new Map<RatePolicy, RateLimiter>();
  const refusals = new Map<RatePolicy, RefusalLimiter>();
  const policyOf = (route: RouteInfo): RatePolicy | undefined => {
    if (!policies.has(route)) policies.set(route, routePolicy(route, global));
    return policies.get(route);
  };
  const limiterOf = (policy: RatePolicy) => {
    let limiter = limiters.get(policy);
    if (!limiter) limiters.set(policy, (limiter = new RateLimiter(policy, context)));
    return limiter;
  };
  const refusalsOf = (policy: RatePolicy) => {
    let limiter = refusals.get(policy);
    if (!limiter) refusals.set(policy, (limiter = new RefusalLimiter(policy, context, limiterOf(policy))));
    return limiter;
  };
  // Before the route's guards: a limit by address, or a keyed limit's count of the requests the guards refuse.
  host.routeMiddleware((route) => {
    const policy = policyOf(route);
    if (!policy) return undefined;
    return policy.key ? refusalsOf(policy) : limiterOf(policy);
  });
  host.routeMiddleware((route) => {
    const policy = policyOf(route);
    return policy?.key ? limiterOf(policy) : undefined;
  }, { at: 'inner' });
  host.openapi((document) => documentLimits(document, host.app.routes, policyOf));
}

// Policies are made once per mark: routes of one @RateLimit'd router share its policy (its name and count).
const markPolicies = new WeakMap<object, Map<string, RatePolicy>>();

function routePolicy(route: RouteInfo, global: RatePolicy | undefined): RatePolicy | undefined {
  const mark = rateLimitMarks.of(route);
  if (mark === false) return undefined;
  if (mark === undefined) return route.builtIn ? undefined : global;
  const fromClass = rateLimitMarks.onClass(route.router) === mark;
  const fallback = counterName(fromClass ? route.router.name : `${route.router.name}.${String(route.handlerName)}`);
  let byName = markPolicies.get(mark);
  if (!byName) markPolicies.set(mark, (byName = new Map()));
  let policy = byName.get(fallback);
  if (!policy) byName.set(fallback, (policy = mark.policy(fallback)));
  return policy;
}

// A counter's name is a header value and part of a key: what a class or method name holds beyond the letters of
// a policy name (`$`, a symbol's parentheses) becomes `_`.
function counterName(name: string): string {
  return name.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 64) || 'route';
}

function fromSettings(host: PluginHost): RateLimitPluginOptions {
  const settings = host.settings(RateLimitSettings);
  return {
    limit: settings.limit,
    window: settings.window,
    global: settings.global,
    onStoreError: settings.on_store_error,
    trustProxy: settings.trust_proxy,
    ipv6Subnet: settings.ipv6_subnet,
    store: settings.store,
    prefix: settings.prefix,
  };
}

// A store named as config.yaml names it, at the `redis:` section's URL.
function namedStore(host: PluginHost, name: string, prefix: string | undefined): RateLimitStore {
  if (name !== 'memory' && name !== 'redis' && name !== 'auto') throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'store', `${name} is not memory, redis or auto`);
  const url = name === 'memory' ? undefined : redisUrlOf(host.settings(RedisSettings));
  if (name === 'redis' && !url) {
    throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'store', 'rate_limit.store is redis but redis.url is empty: set it (REDIS_URL), or use store: auto to count in memory without it');
  }
  return url ? redisStore({ url, prefix }) : memoryStore();
}
