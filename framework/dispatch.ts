import type { ExceptionHandlers } from './exception-handlers';
import type { Logger } from './core/logger';
import type { ExpressMiddleware } from './core/express-middleware';
import { TrellisError } from './framework-error';
import { compose, isMiddlewareClass, Middleware, type MiddlewareLike, type Step } from './middleware';
import type { Class } from './core/types';
import type { ResponseShapes } from './core/response-shapes';
import { ResponseShaper } from './pipeline/response-shape';
import { settle } from './pipeline/settle';
import type { Request } from './request';
import { MATCHED, SCOPES } from './symbols';
import { unguardedScopes } from './routing/guarded-scopes';
import { isThenable } from './core/thenable';
import { varyWith } from './core/vary';
import { errorResponse } from './error-envelope';
import { Response } from './response';
import { toResponse } from './result';
import type { PendingArguments } from './pipeline/arguments';
import type { RouteDependencies } from './pipeline/dependency';
import { RequestScope } from './pipeline/request-scope';
import type { RouteRecord } from './routing/collect';
import type { RouteTable } from './routing/route-table';
import type { VersionReader } from './versioning/request-version';
import type { TypeTable } from './source/types/table';
import { report } from './report';

/**
 * The response to write, or a promise of it when something waits (a body, an async handler or middleware);
 * never throws or rejects: every failure is already a response.
 */
export type Dispatcher = Step;

interface DispatchContext {
  table: RouteTable<RouteRecord>;
  routes: readonly RouteRecord[];
  /** The plug-ins' middleware (`host.use`): around every request, first. */
  pluginMiddleware?: readonly MiddlewareLike[];
  /** The app's own (`addMiddleware`): around every request, inside the plug-ins' and a route's `outer` ones. */
  middleware: readonly MiddlewareLike[];
  /**
   * The plug-ins' middleware for one route (`host.routeMiddleware`): before the app's middleware and the route's
   * own (`outer`: a rate limit counts what a guard then refuses), and inside them (`inner`).
   */
  routeMiddleware?: (route: RouteRecord) => { outer: readonly Middleware[]; inner: readonly Middleware[] };
  /** The middleware classes' instances, built by the app when it started. */
  built: ReadonlyMap<Class, unknown>;
  exceptions: ExceptionHandlers;
  /** Where a failure to answer an error is reported. */
  logger: Logger;
  /** What the routes' sources say: `methodTypes(sourceTypes, route)` is a route's, `sourceTypes.schemas` the named schemas. */
  sourceTypes?: TypeTable;
  /** Turns an Express-style function `(req, res, next)` into middleware: the Express edge's, given by the app. */
  adaptFunction?: (fn: ExpressMiddleware) => Middleware;
  /** The `@Depends()` parameters of the routes that have some, compiled from the container's plans. */
  dependencies?: ReadonlyMap<RouteRecord, RouteDependencies>;
  /** Header versioning: the version a request asks for (URI versioning needs none: versions have their own paths). */
  versions?: VersionReader;
}

/**
 * Compiles the app once: a pipeline per route (its middleware around its handler) and the app's middleware
 * around the route lookup, and each route's declared response shapes (compiled once, here). Every request, docs
 * pages and static files included, goes through it.
 */
export function buildDispatcher(context: DispatchContext): Dispatcher {
  const { table, versions } = context;
  const onError = errorResponder(context);
  const resolve = middlewareResolver(context);

  const shaper = new ResponseShaper(context.sourceTypes);
  const pipelines = new Map<RouteRecord, Step>();
  const around = context.pluginMiddleware ?? [];
  const [unguarded] = unguardedScopes(context.routes, [...around, ...context.middleware]);
  if (unguarded) throw unguarded;
  for (const route of context.routes) {
    const added = context.routeMiddleware?.(route);
    const own = [...context.middleware, ...route.middleware];
    const middleware = (added ? [...added.outer, ...own, ...added.inner] : own).map(resolve);
    const handle = handlerStep(route, shaper.shapesOf(route));
    const dependencies = context.dependencies?.get(route);
    const step = dependencies ? scopedEndpoint(route, handle, dependencies, onError, context.logger) : endpoint(route, handle, onError);
    const pipeline = compose(middleware, step, onError);
    // Under header versioning a versioned route's answer depends on the header: caches must keep one per version.
    pipelines.set(route, versions && route.version !== undefined ? varyOn(versions.header, pipeline) : pipeline);
  }

  // A request no route answers passes the app's middleware too, then gets its 404, 405 or OPTIONS answer.
  const unmatched: Step = (request) => {
    const version = versions?.read(request);
    const anyVersion = versions === undefined || (version === undefined && request.method === 'OPTIONS');
    const allowed = anyVersion ? table.allowed(request.path) : table.allowedFor(request.path, version);
    if (allowed.length === 0) {
      // A path other versions have: a missing or unknown version is the client's to fix (a known one is a 404).
      if (versions && typeof version !== 'string' && table.allowed(request.path).length) return versions.refusal(version);
      return errorResponse(404, 'Not Found');
    }
    const allow = allowed.join(', ');
    if (request.method === 'OPTIONS') return new Response(undefined, { status: 204, headers: { allow } });
    return errorResponse(405, 'Method Not Allowed', { allow });
  };
  const unmatchedPipeline = compose(context.middleware.map(resolve), unmatched, onError);

  // The route is found before any middleware runs, so middleware sees `request.route` and the same `path`.
  const routeDispatch: Step = (request) => {
    const pipeline = request[MATCHED] as Step | undefined;
    return pipeline ? pipeline(request) : unmatchedPipeline(request);
  };
  const chain = around.length ? compose(around.map(resolve), routeDispatch, onError) : routeDispatch;
  return (request) => {
    const { method, path } = request;
    const version = versions === undefined ? undefined : versions.read(request);
    const match = table.find(method, path, version) ?? (method === 'HEAD' ? table.find('GET', path, version) : undefined);
    if (match) {
      request.params = match.params;
      request.route = match.route.path;
      request[MATCHED] = pipelines.get(match.route);
      request[SCOPES] = match.route.scopes;
    }
    return chain(request);
  };
}

/** `step` with `header` added to the `Vary` of its responses. */
function varyOn(header: string, step: Step): Step {
  const vary = (response: Response): Response => {
    const vary = varyWith(response.headers.get('vary'), header);
    if (vary !== undefined) response.headers.set('vary', vary);
    return response;
  };
  return (request) => {
    const response = step(request);
    return response instanceof Response ? vary(response) : response.then(vary);
  };
}

type OnError = (error: unknown, request: Request) => Response | Promise<Response>;
/** Calls the handler with its arguments and settles its response; failures go to the `onError` given. */
type HandlerStep = (args: unknown[], request: Request, onError: OnError) => Response | Promise<Response>;

/**
 * A route's handler with its response, settled. Written without `async` so that what is ready (a handler's plain
 * value, a response with nothing to prepare) is returned as it is, written in the same turn of the event loop,
 * instead of one microtask per `await`; any failure, thrown or rejected, goes to `onError`.
 */
function handlerStep(route: RouteRecord, shapes: ResponseShapes | undefined): HandlerStep {
  const { instance: router } = route;
  const handler = (router as unknown as Record<string | symbol, Function>)[route.handlerName];
  const status = route.options.status ?? 200;
  const answer = (value: unknown, request: Request, onError: OnError): Response | Promise<Response> => {
    try {
      const settled = settle(toResponse(value, status, shapes), request);
      return settled instanceof Response ? settled : Promise.resolve(settled).then(undefined, (error: unknown) => onError(error, request));
    } catch (error) {
      return onError(error, request);
    }
  };
  return (args, request, onError) => {
    let value: unknown;
    try {
      value = handler.apply(router, args);
    } catch (error) {
      return onError(error, request);
    }
    if (!isThenable(value)) return answer(value, request, onError);
    return Promise.resolve(value).then(
      (resolved) => answer(resolved, request, onError),
      (error: unknown) => onError(error, request),
    );
  };
}

/**
 * A route's handler as a step of the pipeline: arguments, handler, response, settled; synchronous when the
 * arguments are (a GET's).
 */
function endpoint(route: RouteRecord, call: HandlerStep, onError: OnError): Step {
  const { readArguments } = route;
  return (request) => {
    let args: unknown[] | PendingArguments;
    try {
      args = readArguments(request);
    } catch (error) {
      return onError(error, request);
    }
    if (typeof args !== 'function') return call(args, request, onError);
    // One promise for the body, the handler and its response (`call` and `onError` never throw).
    const pending = args;
    return new Promise((resolve) => pending((error, read) => resolve(error === null ? call(read!, request, onError) : onError(error, request))));
  };
}

/**
 * The step of a route with `@Depends()` parameters: its arguments, then its dependencies made for this request
 * (after the body: a 422 or a 413 makes none), the handler, then the teardowns once the response is ready and
 * before it is written. Synchronous while every part is.
 */
function scopedEndpoint(route: RouteRecord, call: HandlerStep, dependencies: RouteDependencies, onError: OnError, logger: Logger): Step {
  const { readArguments } = route;
  const withDependencies = (args: unknown[], request: Request, scope: RequestScope): Response | Promise<Response> => {
    let filled: void | Promise<void>;
    try {
      filled = dependencies.fill(scope, request);
    } catch (error) {
      return scope.fail(error, request);
    }
    if (filled === undefined) {
      dependencies.place(scope, args);
      return call(args, request, scope.fail);
    }
    return filled.then(
      () => {
        dependencies.place(scope, args);
        return call(args, request, scope.fail);
      },
      (error: unknown) => scope.fail(error, request),
    );
  };
  return (request) => {
    const scope = new RequestScope(dependencies.size, request, onError, logger);
    let args: unknown[] | PendingArguments;
    try {
      args = readArguments(request);
    } catch (error) {
      return scope.finish(scope.fail(error, request));
    }
    if (typeof args !== 'function') return scope.finish(withDependencies(args, request, scope));
    const pending = args;
    return scope.finish(new Promise((resolve) => pending((error, read) => resolve(error === null ? withDependencies(read!, request, scope) : scope.fail(error, request)))));
  };
}

/**
 * An error's response: the exception handlers' answer, settled; synchronous when both are (a 422 or a 404
 * with no handler registered for it). Should settling it fail too (a template an error handler renders is
 * missing), that failure is answered once more; a third is a bare 500.
 */
function errorResponder({ exceptions, logger }: DispatchContext): (error: unknown, request: Request) => Response | Promise<Response> {
  const retry = async (failure: unknown, request: Request): Promise<Response> => {
    try {
      return await settle(await exceptions.handle(failure, request), request);
    } catch (last) {
      report(logger, request, 'the error response failed', last);
      return errorResponse(500, 'Internal Server Error');
    }
  };
  return (error, request) => {
    try {
      const handled = exceptions.handle(error, request);
      const settled = handled instanceof Response ? settle(handled, request) : handled.then((response) => settle(response, request));
      return settled instanceof Response ? settled : settled.then(undefined, (failure: unknown) => retry(failure, request));
    } catch (failure) {
      return retry(failure, request);
    }
  };
}

function middlewareResolver(context: DispatchContext): (like: MiddlewareLike) => Middleware {
  const instances = new Map<unknown, Middleware>();
  return (like) => {
    let instance = instances.get(like);
    if (instance) return instance;
    if (like instanceof Middleware) instance = like;
    else if (isMiddlewareClass(like)) instance = context.built.get(like as Class) as Middleware;
    else if (typeof like === 'function' && context.adaptFunction) instance = context.adaptFunction(like as ExpressMiddleware);
    else throw new TrellisError('TRELLIS_ERR_INVALID_MIDDLEWARE', String(like));
    instances.set(like, instance);
    return instance;
  };
}
