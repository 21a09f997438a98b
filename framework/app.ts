import type { IncomingMessage, ServerResponse } from 'node:http';
import { Container } from './container';
import { ExceptionHandlers, type ExceptionHandler, type Logger } from './exception-handlers';
import { defaultLogger } from './logger';
import { positiveLimit, TrellisError } from './framework-error';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from './pipeline/body';
import type { Class } from './metadata';
import type { MiddlewareLike } from './middleware';
import { Request, RESPONSE, type RequestContext } from './request';
import { isRouterClass, Controller } from './router';
import { collectRoutes, type RouteInfo, type RouteRecord } from './routing/collect';
import { RouteTable } from './routing/route-table';
import { buildDispatcher, type Dispatcher } from './dispatch';
import { docsPrefix, docsRouter, type DocsOptions } from './docs';
import { createMetrics, type AppMetrics, type MetricsOptions } from './metrics';
import type { Registry } from 'prom-client';
import type { DocCommentTable, OpenAPIDocument } from './openapi';
import { listen, type ListenOptions, type Server } from './server';
import { report, writeFailure, writeResponse } from './write';
import { JSONResponse } from './response';
import { protocolRefusal } from './protocol';
import { canonicalPath } from './routing/canonical-path';
import { resolveUploadLimits, type UploadLimits } from './uploads/limits';
import { faviconRouter, staticMount, staticRouter, type StaticMount } from './static';
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
   * Prometheus metrics at `GET /metrics` (off by default): requests and their durations by route pattern, method
   * and status, and the process's CPU, memory, heap and event-loop lag. `true` turns them on, `{ path, buckets,
   * defaultMetrics }` sets them up (see {@link MetricsOptions}); `app.metrics` is the registry they are read from.
   */
  metrics?: MetricsOptions | boolean;
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
 * Everything is set up before it serves: after `listen()`, reading `handler` or the first request, the
 * methods that add to it throw `TRELLIS_ERR_APP_STARTED`, and each route's pipeline is compiled once.
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
  /** The routes in inclusion order, the docs pages' last. */
  readonly #routes: RouteRecord[] = [];
  #docsRoutes = 0;
  readonly #middleware: MiddlewareLike[] = [];
  readonly #exceptions: ExceptionHandlers;
  #openapi: OpenAPIDocument | undefined;
  #dispatcher: Dispatcher | undefined;
  #context: RequestContext | undefined;
  readonly #staticMounts: StaticMount[] = [];
  #templates: TemplateEngine | undefined;
  readonly #docComments: DocCommentTable | undefined;
  readonly #metrics: AppMetrics | undefined;

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
    this.#docComments = options.docComments;
    this.#metrics = createMetrics(options.metrics);
    if (this.#metrics) {
      this.#container.provide(this.#metrics.registry);
      this.#include(this.#metrics.router);
    }
    const docs = docsPrefix(options.docs);
    if (docs !== undefined) {
      const { title, version, description } = this;
      this.#include(docsRouter(docs, { title, version, description, openapi: () => this.openapi() }));
    }
    this.#docsRoutes = this.#routes.length;
  }

  /** Registers services for constructor injection: a class (built once, on first use) or an instance. */
  provide(...services: Array<Class | object>): this {
    this.#assertSettingUp('provide');
    for (const service of services) this.#container.provide(service);
    return this;
  }

  /**
   * Mounts a router: an instance, or a router class that the app builds, injecting its constructor
   * parameters from provided services. Duplicate routes fail here, naming both handlers.
   */
  includeRouter(router: Controller | Class<Controller>): this {
    this.#assertSettingUp('includeRouter');
    return this.#include(router);
  }

  /** Adds middleware around every request, unmatched ones (404, 405) included. Runs in the order added. */
  addMiddleware(...middleware: MiddlewareLike[]): this {
    this.#assertSettingUp('addMiddleware');
    this.#middleware.push(...middleware);
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
    this.#assertSettingUp('addExceptionHandler');
    this.#exceptions.add(errorClass, handler);
    return this;
  }

  /**
   * Serves the files of `dir` under `urlPrefix` as routes (`GET {urlPrefix}/*`, listed in `app.routes`, out
   * of the OpenAPI document) with ETag, Range and HEAD. Dotfiles, `..` and encoded separators, and symlinks
   * leading out of `dir` are a JSON 404; the directory must exist now. Routers' own routes win over it.
   *
   * @example
   * ```ts
   * app.mountStatic('/static', 'static');   // GET /static/css/app.css -> static/css/app.css
   * ```
   */
  mountStatic(urlPrefix: string, dir: string): this {
    this.#assertSettingUp('mountStatic');
    const mount = staticMount(urlPrefix, dir);
    this.#include(staticRouter(mount));
    this.#staticMounts.push(mount);
    return this;
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
    this.#assertSettingUp('templates');
    this.#templates = new TemplateEngine(dir, options);
    return this;
  }

  /** The absolute templates directory, if `templates(dir)` was called. */
  get templatesDir(): string | undefined {
    return this.#templates?.dir;
  }

  /**
   * Serves `file` at `GET /favicon.ico` (a route out of the OpenAPI document) as `image/x-icon`, with an
   * ETag and a day of caching; the file must exist now.
   *
   * @example
   * ```ts
   * app.favicon('favicon.ico');
   * ```
   */
  favicon(file: string): this {
    this.#assertSettingUp('favicon');
    return this.#include(faviconRouter(file));
  }

  /**
   * Every endpoint the app serves: the routers', static files' and favicon's routes in the order they were
   * added, then the docs pages' (unless `docs: false`).
   */
  get routes(): readonly RouteInfo[] {
    return this.#routes;
  }

  /**
   * The app as a Node request listener, for `http.createServer`, test injectors, or an Express app
   * (`expressApp.use('/api', app.handler)`: the docs pages then link under `/api`). Reading it checks the app
   * (middleware, dependencies), so configuration errors surface at startup, and starts serving.
   */
  get handler(): RequestListener {
    this.#prepare();
    return this.#listener;
  }

  /**
   * The app's prom-client registry, served at `/metrics` when `AppOptions.metrics` is on (`undefined` when
   * off). Register your own metrics on it; services get it by declaring a constructor parameter of type `Registry`.
   *
   * @example
   * ```ts
   * import { Counter } from 'prom-client';
   * const signups = new Counter({ name: 'signups_total', help: 'Accounts created', registers: [app.metrics!] });
   * ```
   */
  get metrics(): Registry | undefined {
    return this.#metrics?.registry;
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
    const request = new Request(req, res, path ?? target, q < 0 ? '' : url.slice(q + 1), this.#context);
    // Like Fastify and pino-http: loggers wrapping the listener read the id from the Node request.
    (req as IncomingMessage & { id?: string }).id = request.id;
    this.#metrics?.tallies.track(request, res);
    const refused = path === undefined ? ([400, 'Malformed request path'] as const) : protocolRefusal(req);
    if (refused) return writeResponse(request, new JSONResponse({ error: refused[1] }, { status: refused[0] }), this.logger);
    dispatcher(request).then(
      (response) => writeResponse(request, response, this.logger),
      (error) => this.#crash(request, error),
    );
  };

  /**
   * The OpenAPI 3.1 document of the routes, built on first call (reading handler doc comments from their
   * source files, or the `docComments` option) and cached until another router is included.
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

  #include(router: Controller | Class<Controller>): this {
    let instance: Controller;
    if (router instanceof Controller) instance = router;
    else if (isRouterClass(router)) instance = this.#container.construct(router as Class<Controller>);
    else throw new TrellisError('TRELLIS_ERR_NOT_A_ROUTER', describe(router));
    const records = collectRoutes(instance);
    for (const record of records) this.#table.add(record.method, record.path, record, record.label);
    this.#routes.splice(this.#routes.length - this.#docsRoutes, 0, ...records);
    this.#openapi = undefined;
    return this;
  }

  #assertSettingUp(method: string): void {
    if (this.#dispatcher) throw new TrellisError('TRELLIS_ERR_APP_STARTED', method);
  }

  // Compiles every pipeline exactly once, the first time the app is asked to serve.
  #prepare(): Dispatcher {
    if (this.#dispatcher) return this.#dispatcher;
    const { bodyLimit, uploadLimits, jsonLimits } = this;
    this.#context = { bodyLimit, uploadLimits, jsonLimits, templates: this.#templates, logger: this.logger };
    return (this.#dispatcher = buildDispatcher({
      table: this.#table,
      routes: this.#routes,
      middleware: this.#middleware,
      container: this.#container,
      exceptions: this.#exceptions,
      logger: this.logger,
    }));
  }

  // Unreachable by design (every step turns errors into responses); kept so a bug cannot hang a socket.
  #crash(request: Request, error: unknown): void {
    writeFailure(request[RESPONSE], request.id, request.raw.complete === false);
    report(this.logger, request, 'the request failed', error);
  }
}

function describe(value: unknown): string {
  return typeof value === 'function' ? value.name || 'anonymous class' : String(value);
}
