import type { BaseRouter } from '../app';
import type { Class, HttpMethod, SourceLocation } from '../core/types';
import { metadataChain } from '../metadata';
import { isMiddlewareClass, Middleware, type MiddlewareLike } from '../middleware';
import { bodyClassOf } from '../pipeline/arguments';
import { isValueClass } from '../pipeline/value-class';
import type { Controller } from '../router';
import { declarationOf } from '../source/declarations';
import { routeLabel } from './collect';
import type { RouteInfo } from './route-info';
import { pathParams } from './path';

/** One middleware of a route, as a tool shows it. */
export interface InspectedMiddleware {
  /** The class's name, an instance's class name, or an Express function's name (`anonymous` without one). */
  name: string;
  /** The `Middleware` class (of an instance too); undefined for an Express `(req, res, next)` function. */
  class: Class<Middleware> | undefined;
}

/** One route of an app, with what tools ask of it. */
export interface InspectedRoute {
  method: HttpMethod;
  /** The full path in `{name}` form. */
  path: string;
  /** `TaskRouter.list`: how messages and errors name the handler. */
  label: string;
  /** The handler method's name. */
  handler: string;
  /** The router class included (for an inherited route, the subclass). */
  router: Class<Controller>;
  /**
   * Where the handler method is declared: its file, and the line of its name from the TypeScript syntax tree;
   * the place the route decorator ran when the source cannot be parsed; undefined when neither is known.
   */
  source: SourceLocation | undefined;
  /** The `{name}` parameters of the path, in order. */
  pathParams: string[];
  /** The handler's `@Path(name)` names, in argument order. */
  boundParams: string[];
  /** Whether the handler takes `@Req()` (it may read any parameter from `request.params`). */
  takesRequest: boolean;
  /**
   * The route's own middleware in the order it runs: the router's (`addMiddleware`), `@Use` on its class, `@Use` on
   * its handler (the app's global middleware runs around every route, before it).
   */
  middleware: InspectedMiddleware[];
  /** Whether the OpenAPI document lists it (internal routes, such as the docs pages, are left out). */
  inSchema: boolean;
  /**
   * The model classes the route names: its `@Body()` class, its `@Query()` / `@Header()` classes, and the
   * `response`/`responses` models of its options.
   */
  models: Class[];
  /** Everything the framework recorded (parameters, options, design types). */
  info: RouteInfo;
}

/** What an app is made of, for tools. */
export interface AppInspection {
  /** Every route of `app.routes`, in the same order. */
  routes: InspectedRoute[];
}

const BUILT_IN = new Set<unknown>([Object, Array, String, Number, Boolean, Date, Promise]);

/**
 * The routes of an app, each with where its handler is declared, its path parameters and their bindings,
 * its middleware and models: what `trellis doctor` checks and prints. Reads `app.routes` and the source files
 * they were declared in; never builds or changes the app.
 *
 * @example
 * ```ts
 * const { routes } = inspectApp(app);
 * for (const route of routes) console.log(route.method, route.path, route.label, `${route.source?.file}:${route.source?.line}`);
 * // GET /tasks TaskRouter.list /home/me/demo/routers/tasks.ts:17
 * ```
 */
export function inspectApp(app: BaseRouter): AppInspection {
  return { routes: app.routes.map(inspectRoute) };
}

function inspectRoute(route: RouteInfo): InspectedRoute {
  const router = route.router as Class<Controller>;
  const { options } = route;
  return {
    method: route.method,
    path: route.path,
    label: route.label,
    handler: String(route.handlerName),
    router,
    source: handlerSource(route),
    pathParams: pathParams(route.path),
    boundParams: route.params.filter((param) => param.kind === 'path').map((param) => param.name!),
    takesRequest: route.params.some((param) => param.kind === 'request'),
    middleware: route.middleware.map(describeMiddleware),
    inSchema: options.includeInSchema !== false,
    models: modelsOf(route),
    info: route,
  };
}

/**
 * The method of a router class a route label names (`TaskRouter.one`, as routes and `TrellisError` details
 * give it), among the routes it declares or inherits; undefined when it declares no such route.
 *
 * @example
 * ```ts
 * handlerOf(TaskRouter, 'TaskRouter.one'); // 'one'
 * handlerOf(TaskRouter, 'UserRouter.one'); // undefined
 * ```
 */
export function handlerOf(router: Function, label: unknown): string | undefined {
  for (const metadata of metadataChain(router)) {
    const route = metadata.routes.find((definition) => routeLabel(router, definition.handler) === label);
    if (route) return String(route.handler);
  }
  return undefined;
}

// The decorator ran in the file that declares the method (with source maps, the TypeScript file), in the router
// class or the base router it inherits the route from; its recorded line only tells same-named classes apart.
function handlerSource(route: RouteInfo): SourceLocation | undefined {
  const recorded = route.source;
  if (!recorded) return undefined;
  const method = String(route.handlerName);
  for (let cls: Function | null = route.router; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    const found = declarationOf(recorded.file, cls.name, method, recorded.line);
    if (found) return found;
  }
  return recorded;
}

function describeMiddleware(like: MiddlewareLike): InspectedMiddleware {
  if (like instanceof Middleware) return { name: like.constructor.name, class: like.constructor as Class<Middleware> };
  if (isMiddlewareClass(like)) return { name: like.name, class: like };
  return { name: like.name || 'anonymous', class: undefined };
}

function modelsOf(route: RouteInfo): Class[] {
  const models: unknown[] = route.params.filter((param) => param.kind === 'body').map((param) => bodyClassOf(param, route.paramTypes[param.index]));
  for (const param of route.params) if (isValueClass(param)) models.push(param.type ?? route.paramTypes[param.index]);
  const { response, responses } = route.options;
  for (const model of [response, ...Object.values(responses ?? {})]) models.push(Array.isArray(model) ? model[0] : model);
  return [...new Set(models)].filter((model): model is Class => typeof model === 'function' && !BUILT_IN.has(model));
}
