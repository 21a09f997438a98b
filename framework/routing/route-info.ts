// A route's description, shared by the app, the docs, the type reader and `trellis doctor`: types only, so
// they need not load the collector (and its argument compiler) to name a route.
import type { Class, HttpMethod, SourceLocation } from '../core/types';
import type { ParamDefinition, RouteOptions } from '../metadata';
import type { MiddlewareLike } from '../middleware';
import type { Controller } from '../router';

/** One endpoint of an included router, as the app, the docs and `trellis doctor` see it. */
export interface RouteInfo {
  method: HttpMethod;
  /** The full path in `{name}` form, base path included (and `/v1` for a versioned route under URI versioning). */
  path: string;
  /** The API version this route serves (`router('/tasks', { version: '1' })`, `@Version`); absent when version-neutral. */
  version?: string;
  /** `TaskRouter.one` */
  label: string;
  /** The router's class (for an included instance, its constructor). */
  router: Class<Controller>;
  handlerName: string | symbol;
  options: RouteOptions;
  params: ParamDefinition[];
  /** `design:paramtypes` and `design:returntype` of the handler. */
  paramTypes: unknown[];
  returnType: unknown;
  /** The route's own middleware, in order: the router's (`addMiddleware`: known once the app has started and built its routers), `@Use` on its class, `@Use` on the handler. */
  middleware: MiddlewareLike[];
  /** Where the route decorator was written. */
  source?: SourceLocation;
  /** The scopes the route needs (`@Scopes` on its class and handler), checked by a scope-aware guard; absent when none. */
  scopes?: readonly string[];
  /** A route of the framework's own routers (docs pages, health probes, metrics, static files, the favicon). */
  builtIn?: true;
  /**
   * A route that takes upgrade requests (a WebSocket gateway's `GET /ws/tasks`): the app's middleware, the
   * route's guards, scopes and rate limit run on the upgrade as on any request; out of the OpenAPI document.
   */
  upgrade?: true;
}
