import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { ExpressApp } from './express-app';
import { Container } from './container';
import { ExceptionHandlers, type ExceptionHandler, type Logger } from './exception-handlers';
import { defaultLogger } from './logger';
import { positiveLimit, TrellisError } from './framework-error';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from './pipeline/body';
import type { Class } from './metadata';
import type { MiddlewareLike } from './middleware';
import { Request } from './request';
import { isRouterClass, Controller } from './router';
import { collectRoutes, type RouteInfo, type RouteRecord } from './routing/collect';
import { RouteTable } from './routing/route-table';
import { buildDispatcher, type Dispatcher } from './dispatch';
import { docsPrefix, mountDocs, type DocsOptions } from './docs';
import type { DocCommentTable, OpenAPIDocument } from './openapi';
import { listen, type ListenOptions, type Server } from './server';
import { report, writeFailure, writeResponse } from './write';
import { JSONResponse } from './response';
import { protocolRefusal } from './protocol';
import { canonicalPath } from './routing/canonical-path';
import { resolveUploadLimits, type UploadLimits } from './uploads/limits';
import { faviconHandler } from './static/favicon';
import { serveStatic, staticMount, type StaticMount } from './static/mount';
import { TemplateEngine, type TemplateOptions } from './templates/engine';

export interface AppOptions {
  /** `info.title` of the OpenAPI document. */
  title?: string;
  version?: string;
  description?: string;
  /** Largest request body read, in bytes (413 above it). 1 MiB by default. */
  bodyLimit?: number;
  /** Most keys one object of a JSON body may have (413 above it, before anything walks the body). 1,000 by default. */
  maxObjectKeys?: number;
  /** Most objects and arrays in one JSON body (413 above it, before it is parsed). 100,000 by default. */
  maxJsonContainers?: number;
  /**
   * Where unexpected errors (`{ err, reqId }`, with their stack) and `request.log` lines go: a pino logger, or
   * anything with its methods. By default `createLogger()`'s: JSON lines on stdout, pino-pretty on a terminal.
   */
  logger?: Logger;
  /**
   * The documentation pages (landing page, Swagger UI, ReDoc, `openapi.json`, `openapi.yaml`), served
   * under `/docs` by default; `{ path: '/api-docs' }` moves them, `false` turns them off.
   */
  docs?: DocsOptions | false;
  /**
   * Multipart limits: `{ fileSize: 10 MiB, files: 10, fields: 100, fieldSize: 1 MiB, fieldsSize: 1 MiB }` by default
   * (413 above them); files over `memorySize` (1 MiB) go to temporary files.
   */
  uploads?: Partial<UploadLimits>;
  /**
   * The routers' doc comments, precomputed (see {@link DocCommentTable}): the docs then read them from this
   * table only, instead of parsing the routers' source files with TypeScript. `trellis build` passes its
   * manifest's table here, since a built app ships neither sources nor TypeScript.
   */
  docComments?: DocCommentTable;
}

/**
 * A Node request listener, usable with `http.createServer`, supertest, or `expressApp.use(path, ...)`.
 * It sets `req.id` to the request id (the `X-Request-Id` of the response) for loggers wrapping it.
 */
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
  /** `maxObjectKeys` and `maxJsonContainers`, checked. */
  readonly jsonLimits: Readonly<JsonLimits>;
  readonly logger: Logger;
  readonly uploadLimits: Readonly<UploadLimits>;
  readonly #container = new Container();
  readonly #table = new RouteTable<RouteRecord>();
  readonly #routes: RouteRecord[] = [];
  readonly #middleware: MiddlewareLike[] = [];
  readonly #exceptions: ExceptionHandlers;
  #express: Express | undefined;
  readonly #docsPrefix: string | undefined;
  #openapi: OpenAPIDocument | undefined;
  #dispatcher: Dispatcher | undefined;
  readonly #staticMounts: StaticMount[] = [];
  /** What goes on the Express instance once it exists, in the order it was asked for. */
  readonly #expressMounts: Array<(express: Express) => void> = [];
  #templates: TemplateEngine | undefined;
  readonly #docComments: DocCommentTable | undefined;

  constructor(options: AppOptions = {}) {
    this.title = options.title ?? 'trellis API';
    this.version = options.version ?? '0.1.0';
    this.description = options.description;
    this.bodyLimit = options.bodyLimit ?? 1024 * 1024;
    this.jsonLimits = Object.freeze({
      maxObjectKeys: positiveLimit('maxObjectKeys', options.maxObjectKeys ?? DEFAULT_JSON_LIMITS.maxObjectKeys),
      maxJsonContainers: positiveLimit('maxJsonContainers', options.maxJsonContainers ?? DEFAULT_JSON_LIMITS.maxJsonContainers),
    });
    this.logger = options.logger ?? defaultLogger();
    this.uploadLimits = resolveUploadLimits(options.uploads);
    this.#exceptions = new ExceptionHandlers(this.logger);
    this.#docsPrefix = docsPrefix(options.docs);
    this.#docComments = options.docComments;
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
  includeRouter(router: Controller | Class<Controller>): this {
    let instance: Controller;
    if (router instanceof Controller) instance = router;
    else if (isRouterClass(router)) instance = this.#container.construct(router as Class<Controller>);
    else throw new TrellisError('TRELLIS_ERR_NOT_A_ROUTER', describe(router));
    const records = collectRoutes(instance);
    for (const record of records) this.#table.add(record.method, record.path, record, record.label);
    this.#routes.push(...records);
    this.#dispatcher = undefined;
    this.#openapi = undefined;
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

  /**
   * Serves the files of `dir` under `urlPrefix` (ETag, Range, HEAD). Dotfiles, `..` and encoded separators,
   * and symlinks leading out of `dir` are a JSON 404; the directory must exist now.
   *
   * @example
   * ```ts
   * app.mountStatic('/static', 'static');   // GET /static/css/app.css -> static/css/app.css
   * ```
   */
  mountStatic(urlPrefix: string, dir: string): this {
    const mount = staticMount(urlPrefix, dir);
    this.#staticMounts.push(mount);
    return this.#onExpress((express) => serveStatic(express, mount));
  }

  /** The directories given to `mountStatic`, as absolute paths. */
  get staticMounts(): readonly StaticMount[] {
    return this.#staticMounts;
  }

  /**
   * Sets the directory `render(name, context)` reads templates from (nunjucks, autoescaping on). Configured
   * once, here; templates are compiled on first use and cached.
   *
   * @example
   * ```ts
   * app.templates('templates', { filters: { upper: (s: string) => s.toUpperCase() } });
   * ```
   */
  templates(dir: string, options: TemplateOptions = {}): this {
    this.#templates = new TemplateEngine(dir, options);
    this.#dispatcher = undefined;
    return this;
  }

  /** The absolute templates directory, if `templates(dir)` was called. */
  get templatesDir(): string | undefined {
    return this.#templates?.dir;
  }

  /**
   * Serves `file` at `GET /favicon.ico` as `image/x-icon`, read once, here.
   *
   * @example
   * ```ts
   * app.favicon('favicon.ico');
   * ```
   */
  favicon(file: string): this {
    const handler = faviconHandler(file);
    return this.#onExpress((express) => express.get('/favicon.ico', handler));
  }

  /** Every endpoint of the included routers, in inclusion order. */
  get routes(): readonly RouteInfo[] {
    return this.#routes;
  }

  /**
   * The Express application that serves what no trellis route matches (docs, static files, the favicon,
   * anything mounted with `app.express.use`). Created on first access, or by the first request no route
   * matches: an app that only serves its routes never loads Express.
   */
  get express(): ExpressApp {
    if (!this.#express) {
      this.#express = this.#createExpress();
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
    const target = q < 0 ? url : url.slice(0, q);
    const path = canonicalPath(target);
    const request = new Request(req, res, path ?? target, q < 0 ? '' : url.slice(q + 1), this.bodyLimit, this.uploadLimits, this.jsonLimits, this.logger);
    // Like Fastify and pino-http: loggers wrapping the listener read the id from the Node request.
    (req as IncomingMessage & { id?: string }).id = request.id;
    const refused = path === undefined ? ([400, 'Malformed request path'] as const) : protocolRefusal(req);
    if (refused) return writeResponse(request, new JSONResponse({ error: refused[1] }, { status: refused[0] }), this.logger);
    dispatcher(request).then(
      (response) => response && writeResponse(request, response, this.logger),
      (error) => this.#crash(request, error),
    );
  };

  /**
   * The OpenAPI 3.1 document of the included routes, built on first call (reading handler doc comments
   * from their source files, or the `docComments` option) and cached until another router is included.
   *
   * @example
   * ```ts
   * writeFileSync('openapi.json', JSON.stringify(app.openapi(), null, 2));
   * ```
   */
  openapi(): OpenAPIDocument {
    if (this.#openapi) return this.#openapi;
    // Loaded on first use: the schema generator is not needed to serve routes.
    const { buildOpenAPI } = require('./openapi') as typeof import('./openapi');
    const { title, version, description } = this;
    return (this.#openapi = buildOpenAPI({ title, version, description }, this.#routes, this.#docComments));
  }

  // Mounts are checked when asked for (a missing directory fails at startup) and applied to Express when it
  // is created: loading Express and the docs was a third of a cold start.
  #onExpress(mount: (express: Express) => void): this {
    if (this.#express) mount(this.#express);
    else this.#expressMounts.push(mount);
    this.#dispatcher = undefined;
    return this;
  }

  // The docs are mounted first on the Express instance, before anything the user adds to it.
  #createExpress(): Express {
    const express = createExpress();
    if (this.#docsPrefix !== undefined) {
      const { title, version, description } = this;
      mountDocs(express, this.#docsPrefix, { title, version, description, openapi: () => this.openapi() });
    }
    for (const mount of this.#expressMounts.splice(0)) mount(express);
    return express;
  }

  #prepare(): Dispatcher {
    if (this.#dispatcher) return this.#dispatcher;
    const servesMore = this.#express !== undefined || this.#docsPrefix !== undefined || this.#expressMounts.length > 0;
    const ensureExpress = () => (this.#express ??= this.#createExpress());
    return (this.#dispatcher = buildDispatcher({
      table: this.#table,
      routes: this.#routes,
      middleware: this.#middleware,
      container: this.#container,
      exceptions: this.#exceptions,
      fallback: servesMore ? ensureExpress : undefined,
      ensureExpress,
      templates: this.#templates,
      logger: this.logger,
    }));
  }

  // Unreachable by design (every step turns errors into responses); kept so a bug cannot hang a socket.
  #crash(request: Request, error: unknown): void {
    writeFailure(request.rawResponse, request.id, request.raw.complete === false);
    report(this.logger, request, 'the request failed', error);
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
