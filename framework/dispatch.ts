import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Container } from './container';
import type { ExceptionHandlers, Logger } from './exception-handlers';
import { TrellisError } from './framework-error';
import { compose, ExpressMiddlewareAdapter, isMiddlewareClass, Middleware, type CallNext, type MiddlewareLike } from './middleware';
import type { Class } from './metadata';
import { MATCHED, type Request } from './request';
import { JSONResponse, Response } from './response';
import { toResponse } from './result';
import type { RouteRecord } from './routing/collect';
import { expressify } from './routing/expressify';
import type { RouteTable } from './routing/route-table';
import { report, writeFailure, writeResponse } from './write';
import type { TemplateEngine } from './templates/engine';
import { finishResponse, renderPending } from './templates/template-response';

/** Resolves to the response to write, or `null` when Express is writing it. */
export type Dispatcher = (request: Request) => Promise<Response | null>;

interface DispatchContext {
  table: RouteTable<RouteRecord>;
  routes: readonly RouteRecord[];
  middleware: readonly MiddlewareLike[];
  container: Container;
  exceptions: ExceptionHandlers;
  /** The Express instance unmatched requests go to (created on first use), when the app has one or will. */
  fallback: (() => Express) | undefined;
  /** The app's Express instance, created if needed (Express middleware needs one). */
  ensureExpress: () => Express;
  /** The engine of `app.templates(dir)`, which renders `render(...)` results. */
  templates?: TemplateEngine;
  /** Where a response Node refused to send is reported. */
  logger: Logger;
}

/**
 * A response the app's Express instance will produce (static files, docs assets). Middleware sees it
 * before Express runs: headers it sets are kept; its status and body are not known yet.
 */
export class ExpressResponse extends Response {
  constructor(
    readonly express: Express,
    readonly exceptions: ExceptionHandlers,
    readonly logger: Logger,
  ) {
    super(undefined, { status: 200 });
  }

  serve(request: Request): void {
    const { raw: req, rawResponse: res } = request;
    res.setHeader('x-request-id', request.id);
    res.setHeader('x-content-type-options', 'nosniff');
    for (const [name, value] of Object.entries(this.headers.toObject())) res.setHeader(name, value);
    // What app.handle() does, minus replacing the prototypes (test injectors' responses keep their own end()).
    expressify(this.express, req, res);
    const router = (this.express as unknown as { router: { handle: Function } }).router;
    router.handle(req, res, (error?: unknown) => {
      if (!error) return writeResponse(request, notFound(), this.logger);
      this.exceptions.handle(error, request).then(
        (response) => writeResponse(request, response, this.logger),
        (failure) => {
          writeFailure(res, request.id, req.complete === false);
          report(this.logger, request, 'the request failed', failure);
        },
      );
    });
  }
}

const notFound = () => new JSONResponse({ error: 'Not Found' }, { status: 404 });

/** Compiles the app once: route pipelines, middleware chains and the unmatched-request fallbacks. */
export function buildDispatcher(context: DispatchContext): Dispatcher {
  const { table, exceptions } = context;
  const onError = (error: unknown, request: Request) => exceptions.handle(error, request);
  const resolve = middlewareResolver(context);

  const pipelines = new Map<RouteRecord, CallNext>();
  for (const route of context.routes) {
    pipelines.set(route, compose(route.middleware.map(resolve), endpoint(route, onError, context.templates), onError));
  }
  const { fallback } = context;

  // The route is found before any middleware runs, so middleware sees `request.route` and the same `path`.
  const routeDispatch: CallNext = async (request) => {
    const pipeline = request[MATCHED] as CallNext | undefined;
    if (pipeline) return pipeline(request);
    const allowed = table.allowed(request.path);
    if (allowed.length === 0) return fallback ? new ExpressResponse(fallback(), exceptions, context.logger) : notFound();
    const allow = allowed.join(', ');
    if (request.method === 'OPTIONS') return new Response(undefined, { status: 204, headers: { allow } });
    return new JSONResponse({ error: 'Method Not Allowed' }, { status: 405, headers: { allow } });
  };

  const chain = compose(context.middleware.map(resolve), routeDispatch, onError);
  return async (request) => {
    const { method, path } = request;
    const match = table.find(method, path) ?? (method === 'HEAD' ? table.find('GET', path) : undefined);
    if (match) {
      request.params = match.params;
      request.route = match.route.path;
      request[MATCHED] = pipelines.get(match.route);
    }
    const response = await chain(request);
    if (response instanceof ExpressResponse) {
      response.serve(request);
      return null;
    }
    return finishResponse(response, request, context.templates, onError);
  };
}

function endpoint(
  route: RouteRecord,
  onError: (error: unknown, request: Request) => Promise<Response>,
  templates: TemplateEngine | undefined,
): CallNext {
  const { router, readArguments } = route;
  const handler = (router as unknown as Record<string | symbol, Function>)[route.handlerName];
  const status = route.options.status ?? 200;
  return async (request) => {
    try {
      const args = await readArguments(request);
      return renderPending(toResponse(await handler.apply(router, args), status), templates);
    } catch (error) {
      return onError(error, request);
    }
  };
}

function middlewareResolver(context: DispatchContext): (like: MiddlewareLike) => Middleware {
  const instances = new Map<unknown, Middleware>();
  const prepare = (req: IncomingMessage, res: ServerResponse) => expressify(context.ensureExpress(), req, res);
  return (like) => {
    let instance = instances.get(like);
    if (instance) return instance;
    if (like instanceof Middleware) instance = like;
    else if (isMiddlewareClass(like)) instance = context.container.construct(like as Class<Middleware>);
    else if (typeof like === 'function') instance = new ExpressMiddlewareAdapter(like as never, prepare);
    else throw new TrellisError('TRELLIS_ERR_INVALID_MIDDLEWARE', String(like));
    instances.set(like, instance);
    return instance;
  };
}
