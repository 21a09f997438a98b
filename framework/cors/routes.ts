import { HTTP_METHODS, type HttpMethod } from '../core/types';
import { corsMark } from '../decorators/cors';
import type { Request } from '../request';
import { RouteTable } from '../routing/route-table';
import type { RouteInfo } from '../routing/route-info';
import type { CorsOptions } from './options';
import { CorsPolicy } from './policy';

/**
 * The CORS policy of every route (the app's, or a router's or handler's `@Cors`), found without allocating:
 * by method, then by route pattern (`request.route`). `null` is CORS turned off (`@Cors(false)`).
 */
export class CorsRoutes {
  readonly app: CorsPolicy;
  /** Preflights to a route with `@Cors(false)`: answered as any OPTIONS, without CORS headers. */
  readonly turnedOff = new WeakSet<Request>();
  readonly #options: CorsOptions;
  #byMethod = new Map<string, Map<string, CorsPolicy | null>>();
  #table: RouteTable<CorsPolicy | null> | undefined;

  constructor(options: CorsOptions) {
    this.#options = options;
    this.app = new CorsPolicy(options, 'cors');
  }

  /** Compiles each route's policy once the routes are final; a route's options that do not fit throw, naming it. */
  build(routes: readonly RouteInfo[]): void {
    this.#byMethod = new Map();
    const compiled = new Map<CorsOptions | false, CorsPolicy | null>();
    const table = new RouteTable<CorsPolicy | null>();
    for (const route of routes) {
      const mark = corsMark.of(route);
      let policy = mark === undefined ? this.app : compiled.get(mark);
      if (policy === undefined) {
        policy = mark === false ? null : new CorsPolicy({ ...this.#options, ...defined(mark as CorsOptions) }, `@Cors on ${route.label}`);
        compiled.set(mark as CorsOptions | false, policy);
      }
      let paths = this.#byMethod.get(route.method);
      if (!paths) this.#byMethod.set(route.method, (paths = new Map()));
      if (!paths.has(route.path)) paths.set(route.path, policy);
      try {
        table.add(route.method, route.path, policy, route.label);
      } catch {
        // The same method and path twice (versions told apart by a header): the first route's policy answers.
      }
    }
    this.#table = table;
  }

  /** The policy of the route `request` matched (HEAD served by a GET route included); the app's when none did. */
  of(request: Request): CorsPolicy | null {
    const route = request.route;
    if (route === undefined) return this.app;
    let policy = this.#byMethod.get(request.method)?.get(route);
    if (policy === undefined && request.method === 'HEAD') policy = this.#byMethod.get('GET')?.get(route);
    return policy === undefined ? this.app : policy;
  }

  /**
   * The policy answering a preflight for `method` at `path`: the route's for that method; the app's when the path
   * has routes under other methods only (the browser then meets the 405 itself); undefined when no route has the path.
   */
  preflight(method: string, path: string): CorsPolicy | null | undefined {
    const table = this.#table;
    if (!table) return undefined;
    const upper = method.toUpperCase();
    const known = (HTTP_METHODS as readonly string[]).includes(upper);
    const found = known ? (table.find(upper, path) ?? (upper === 'HEAD' ? table.find('GET', path) : undefined)) : undefined;
    if (found) return found.route;
    return HTTP_METHODS.some((other: HttpMethod) => table.find(other, path)) ? this.app : undefined;
  }
}

// `@Cors({ origins: [...] })` replaces the app's origins and keeps its other options: an option left out (or
// undefined) is the app's.
function defined(options: CorsOptions): CorsOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as CorsOptions;
}
