import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { Container } from './container';
import { ExceptionHandlers, type ExceptionHandler, type Logger } from './exception-handlers';
import { TrellisError } from './framework-error';
import type { Class } from './metadata';
import type { MiddlewareLike } from './middleware';
import { Request } from './request';
import { isRouterClass, RouterBase } from './router';
import { collectRoutes, type RouteInfo, type RouteRecord } from './routing/collect';
import { RouteTable } from './routing/route-table';
import { buildDispatcher, type Dispatcher } from './dispatch';
import { listen, type ListenOptions, type Server } from './server';
import { writeResponse } from './write';

export interface AppOptions {
  /** `info.title` of the OpenAPI document. */
  title?: string;
  version?: string;
  description?: string;
  /** Largest request body read, in bytes (413 above it). 1 MiB by default. */
  bodyLimit?: number;
  /** Where unexpected errors are logged with their stack; `console` by default. */
  logger?: Logger;
}

/** A Node request listener, usable with `http.createServer`, supertest, or `expressApp.use(path, ...)`. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The application: routers, services, middleware and exception handlers, served by `listen()` or `handler`.
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ title: 'Tasks API', version: '1.0.0' });
 * app.provide(TaskService).includeRouter(TaskRouter).addMiddleware(Timing);
 * const server = await app.listen({ port: 8000 });
 * ```
 */
export class BaseRouter {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly bodyLimit: number;
  readonly logger: Logger;
  readonly #container = new Container();
  readonly #table = new RouteTable<RouteRecord>();
  readonly #routes: RouteRecord[] = [];
  readonly #middleware: MiddlewareLike[] = [];
  readonly #exceptions: ExceptionHandlers;
  #express: Express | undefined;
  #dispatcher: Dispatcher | undefined;

  constructor(options: AppOptions = {}) {
    this.title = options.title ?? 'trellis API';
    this.version = options.version ?? '0.1.0';
    this.description = options.description;
    this.bodyLimit = options.bodyLimit ?? 1024 * 1024;
    this.logger = options.logger ?? console;
    this.#exceptions = new ExceptionHandlers(this.logger);
  }

  /** Registers services for constructor injection: a class (built once, on first use) or an instance. */
  provide(...services: Array<Class | object>): this {
    for (const service of services) this.#container.provide(service);
    this.#dispatcher = undefined;
    return this;
  }

  /**
   * Mounts a router: an instance, or a router class that the app builds, injecting its constructor
   * parameters from provided services. Duplicate routes fail here, naming both handlers.
   */
  includeRouter(router: RouterBase | Class<RouterBase>): this {
    let instance: RouterBase;
    if (router instanceof RouterBase) instance = router;
    else if (isRouterClass(router)) instance = this.#container.construct(router as Class<RouterBase>);
    else throw new TrellisError('TRELLIS_ERR_NOT_A_ROUTER', describe(router));
    const records = collectRoutes(instance);
    for (const record of records) this.#table.add(record.method, record.path, record, record.label);
    this.#routes.push(...records);
    this.#dispatcher = undefined;
    return this;
  }

  /** Adds middleware around every request, unmatched ones (404, 405) included. Runs in the order added. */
  addMiddleware(...middleware: MiddlewareLike[]): this {
    this.#middleware.push(...middleware);
    this.#dispatcher = undefined;
    return this;
  }

  /**
   * Maps an error class (and its subclasses) to a response; the handler returns anything a route may return.
   *
   * @example
   * ```ts
   * app.addExceptionHandler(NotFoundError, (error) => [{ error: error.message }, 404]);
   * ```
   */
  addExceptionHandler<E>(errorClass: Class<E>, handler: ExceptionHandler<E>): this {
    this.#exceptions.add(errorClass, handler);
    return this;
  }

  /** Every endpoint of the included routers, in inclusion order. */
  get routes(): readonly RouteInfo[] {
    return this.#routes;
  }

  /**
   * The Express application that serves what no trellis route matches (static files, docs assets,
   * anything mounted with `app.express.use`). Created on first access.
   */
  get express(): Express {
    if (!this.#express) {
      this.#express = createExpress();
      this.#dispatcher = undefined;
    }
    return this.#express;
  }

  /**
   * The app as a Node request listener. Reading it checks the app (middleware, dependencies), so
   * configuration errors surface at startup.
   */
  get handler(): RequestListener {
    this.#prepare();
    return this.#listener;
  }

  /** Starts an HTTP server; its `close()` lets in-flight requests finish. */
  listen(options: ListenOptions = {}): Promise<Server> {
    return listen(this.handler, options);
  }

  readonly #listener: RequestListener = (req, res) => {
    const dispatcher = this.#prepare();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const request =
      q < 0
        ? new Request(req, res, url, '', this.bodyLimit)
        : new Request(req, res, url.slice(0, q), url.slice(q + 1), this.bodyLimit);
    dispatcher(request).then(
      (response) => response && writeResponse(res, response, req.method === 'HEAD'),
      (error) => this.#crash(res, error),
    );
  };

  #prepare(): Dispatcher {
    return (this.#dispatcher ??= buildDispatcher({
      table: this.#table,
      routes: this.#routes,
      middleware: this.#middleware,
      container: this.#container,
      exceptions: this.#exceptions,
      express: () => this.#express,
      ensureExpress: () => this.#express ?? (this.#express = createExpress()),
    }));
  }

  // Unreachable by design (every step turns errors into responses); kept so a bug cannot hang a socket.
  #crash(res: ServerResponse, error: unknown): void {
    this.logger.error('trellis: response could not be written', error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    if (!res.writableEnded) res.end('{"error":"Internal Server Error"}');
  }
}

function createExpress(): Express {
  const app = (require('express') as typeof import('express'))();
  app.disable('x-powered-by');
  return app;
}

function describe(value: unknown): string {
  return typeof value === 'function' ? value.name || 'anonymous class' : String(value);
}
