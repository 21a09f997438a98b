import type { AppOptions } from './app-options';
import type { RequestListener } from './core/listener';
import { settingsProvider } from './settings';
import { Container } from './injection/container';
import type { Provider } from './injection/provider';
import { healthRouter, healthSettings, type Readiness } from './health';
import { Lifecycle, type Built } from './lifecycle/lifecycle';
import type { AppState } from './lifecycle/state';
import { middlewareOf } from './router';
import { ExceptionHandlers, type ExceptionHandler } from './exception-handlers';
import type { Logger } from './core/logger';
import { defaultLogger } from './logger';
import { positiveLimit, TrellisError } from './framework-error';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from './pipeline/body';
import type { Class } from './core/types';
import { isMiddlewareClass, type MiddlewareLike } from './middleware';
import { isRouterClass, Controller } from './router';
import { collectRoutes, type RouteRecord } from './routing/collect';
import type { RouteInfo } from './routing/route-info';
import { RouteTable } from './routing/route-table';
import { buildDispatcher } from './dispatch';
import { docsPrefix, docsRouter } from './docs';
import { createMetrics, type AppMetrics } from './metrics';
import type { Registry } from 'prom-client';
import type { DocCommentTable, OpenAPIDocument } from './openapi';
import type { TypeTable } from './source/types/table';
import { attachApp, listen, type ListenOptions, type Server } from './server';
import type { Response } from './response';
import { AppListener } from './app-listener';
import { resolveUploadLimits, type UploadLimits } from './uploads/limits';
import { faviconRouter, staticMount, staticRouter, type StaticMount } from './static';
import { TemplateEngine, type TemplateOptions } from './templates/engine';
import { readRouteTypes } from './source/types/app-types';
import { trustedIdHeader } from './request-id';

export type { AppOptions } from './app-options';
export type { RequestListener } from './core/listener';

/**
 * The application: routers, services, middleware and exception handlers, served by `listen()` or `handler`.
 * Everything is set up before it serves: after `start()`, `listen()`, reading `handler` or the first
 * request, the methods that add to it throw `TRELLIS_ERR_APP_STARTED`. `start()` builds every router,
 * middleware and service (dependencies first, awaiting async factories), runs their `onStartup()` hooks in
 * that order and compiles each route's pipeline once; `stop()` runs their `onShutdown()` hooks in reverse.
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ title: 'Tasks API', version: '1.0.0' });
 * app.provide(TaskService).includeRouter(TaskRouter).addMiddleware(Timing);
 * const server = await app.listen({ port: 8000 });   // start() first: hooks run before the port opens
 * process.once('SIGTERM', () => closeGracefully(server));   // drains, then stop(): shutdown hooks
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
  /** The routes in inclusion order, the docs pages' and health probes' last. */
  readonly #routes: RouteRecord[] = [];
  /** The framework's own routes (docs pages, health probes): kept after the ones added later. */
  #builtInRoutes = 0;
  readonly #middleware: MiddlewareLike[] = [];
  readonly #exceptions: ExceptionHandlers;
  #openapi: OpenAPIDocument | undefined;
  #servesDocs = false;
  #frozen = false;
  readonly #life: Lifecycle;
  /** The router classes included, which the app builds when it starts. */
  readonly #routerClasses: Array<Class<Controller>> = [];
  readonly #staticMounts: StaticMount[] = [];
  #templates: TemplateEngine | undefined;
  readonly #docComments: DocCommentTable | undefined;
  /** What the routes' sources say of their return types and statuses: given, read when the app freezes, or none (`false`). */
  #sourceTypes: TypeTable | false | undefined;
  readonly #metrics: AppMetrics | undefined;
  /** Serves the requests: `handler` is its listener. */
  readonly #serving: AppListener;
  /** The request header ids are taken from (`AppOptions.requestIdHeader`), if any. */
  readonly #requestIdHeader: string | undefined;

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
    this.#requestIdHeader = trustedIdHeader(options.requestIdHeader);
    this.#life = new Lifecycle(this.logger);
    this.uploadLimits = resolveUploadLimits(options.uploads);
    this.#exceptions = new ExceptionHandlers(this.logger);
    this.#docComments = options.docComments;
    this.#sourceTypes = options.sourceTypes;
    this.#metrics = createMetrics(options.metrics);
    this.#serving = new AppListener(this.logger, this.#metrics, () => this.start());
    this.#serving.answers = (method, path) => this.#table.answers(method, path);
    if (this.#metrics) {
      this.#container.provide(this.#metrics.registry);
      this.#include(this.#metrics.router);
    }
    const docs = docsPrefix(options.docs);
    if (docs !== undefined) {
      this.#servesDocs = true;
      const { title, version, description } = this;
      this.#include(docsRouter(docs, { title, version, description, openapi: () => this.openapi() }));
    }
    const health = healthSettings(options.health);
    if (health) this.#includeHealth(health);
    this.#builtInRoutes = this.#routes.length;
    internals.set(this, {
      container: this.#container,
      consumers: () => this.#consumers(),
      bind: (built) => this.#bind(built),
      sourceTypes: () => this.#types(),
      routes: () => this.#routes,
    });
    // A `@Settings` class nobody provided is its config section, read from the provided Config.
    this.#container.autoProvide = settingsProvider;
  }

  /**
   * Registers services for constructor injection: a class (built once, when the app starts), an instance, or
   * a provider object giving a token its value (`useValue`), class (`useClass`) or factory (`useFactory`,
   * which may be async and receives `inject`'s tokens). A parameter typed with an interface or a primitive
   * names its token with `@Inject(TOKEN)`.
   *
   * @example
   * ```ts
   * app.provide(TaskService, new Clock(), { provide: DB_POOL, useFactory: async (config: Config) => connect(config.string('db.url')), inject: [Config] });
   * ```
   */
  provide(...services: Array<Class | object | Provider>): this {
    this.#assertSettingUp('provide');
    // A `@Settings` class given as a service (exported from services/) is its section too, never `new`-built empty.
    for (const service of services) this.#container.provide((typeof service === 'function' && settingsProvider(service as Class)) || service);
    return this;
  }

  /**
   * Mounts a router: an instance, or a router class that the app builds when it starts, injecting its
   * constructor parameters from provided services (provide them first: each parameter is checked here).
   * Duplicate routes fail here, naming both handlers.
   */
  includeRouter(router: Controller | Class<Controller>): this {
    this.#assertSettingUp('includeRouter');
    return this.#include(router, false);
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
   * added, then the docs pages' (unless `docs: false`) and the health probes' (with `health`).
   */
  get routes(): readonly RouteInfo[] {
    return this.#routes;
  }

  /**
   * The app as a Node request listener, for `http.createServer`, test injectors, or an Express app
   * (`expressApp.use('/api', app.handler)`: the docs pages then link under `/api`; a request none of the app's routes
   * answers goes on to the next Express handler, as from an Express router). Reading it ends setting up
   * and checks the wiring (middleware, dependencies), so configuration errors surface at startup. The first
   * request starts the app unless `start()` was awaited (health probes answer without waiting for it).
   */
  get handler(): RequestListener {
    this.#freeze();
    return this.#serving.listener;
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

  /**
   * Starts the app (see {@link start}), then an HTTP server: the port opens once every startup hook has run.
   * `closeGracefully(server)` lets in-flight requests finish, then stops the app (shutdown hooks).
   */
  async listen(options: ListenOptions = {}): Promise<Server> {
    await this.start();
    try {
      const server = await listen(this.handler, options);
      attachApp(server, this);
      return server;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Where the app is in its life: `'setting-up'`, `'starting'`, `'ready'`, `'draining'` or `'stopped'`. */
  get state(): AppState {
    return this.#life.state;
  }

  /**
   * Builds every router, middleware and service the app needs (and every provided service with lifecycle
   * hooks), dependencies first, awaiting async factories; runs their `onStartup()` hooks in that order;
   * compiles the pipelines. Runs once: later calls return the same promise. A hook that throws stops it:
   * the hooks that ran get their `onShutdown()`, and it rejects with `TRELLIS_ERR_STARTUP_FAILED` naming the
   * hook (its error as `cause`). Serving `handler` yourself, call it first; otherwise the first request does.
   *
   * @example
   * ```ts
   * await app.start();               // Database.onStartup() has connected
   * http.createServer(app.handler).listen(8000);
   * ```
   */
  start(): Promise<void> {
    return this.#life.start(() => this.#build());
  }

  /**
   * Marks the app as shutting down: `/readyz` answers 503 from now on, so load balancers stop sending
   * requests, while requests keep being served. `closeGracefully()` calls it before it stops accepting.
   */
  drain(): void {
    this.#life.drain();
  }

  /**
   * Runs the `onShutdown()` hooks of everything started, in reverse startup order, each logged; one that
   * throws is logged and the next still runs. With `timeoutMs` (10 s by default), hooks still running then are
   * abandoned and the rest skipped. Resolves `true` when every hook finished. Runs once; call it after
   * requests drained.
   *
   * @example
   * ```ts
   * await closeGracefully(server);   // drains, then calls app.stop() within the same grace period
   * await app.stop();                // an app served by your own server
   * ```
   */
  stop(options: { timeoutMs?: number } = {}): Promise<boolean> {
    return this.#life.stop(options.timeoutMs ?? 10_000);
  }

  /**
   * Runs every `healthCheck()`, each within `timeoutMs`, at once: what `/readyz` answers from (which runs it one at
   * a time and reuses its result for `health.checkInterval` ms). A check's change of state is logged.
   */
  readiness(timeoutMs = 5_000): Promise<Readiness> {
    return this.#life.readiness(timeoutMs);
  }

  // Builds routers, middleware and services, and the pipelines; they serve once the startup hooks ran.
  async #build(): Promise<Built> {
    const built = await this.#container.build(this.#freeze());
    this.#bind(built);
    // Middleware classes routers added in their constructors are known only now.
    const late = this.#middlewareClasses().filter((cls) => !built.has(cls));
    this.#container.check(late);
    for (const [cls, instance] of await this.#container.build(late)) built.set(cls, instance);
    const sourceTypes = this.#types();
    // A document that cannot be built would fail at request time: refused here instead, before serving.
    if (this.#servesDocs) (require('./openapi/schema-names') as typeof import('./openapi/schema-names')).assertSchemaNames(this.#routes);
    const dispatcher = buildDispatcher({ table: this.#table, routes: this.#routes, middleware: this.#middleware, built, exceptions: this.#exceptions, logger: this.logger, sourceTypes });
    const given = [...this.#routes.map((route) => route.instance), ...this.#middleware].filter((item) => typeof item === 'object');
    return { targets: [...new Set([...this.#container.built, ...given])], serve: () => (this.#serving.dispatcher = dispatcher) };
  }

  /**
   * The OpenAPI 3.1 document of the routes, built on first call (reading handler doc comments from their
   * source files, or the `docComments` option) and cached until another router is included or the app starts
   * (middleware that routers add in their constructors, and the security it declares, is known from then on).
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
    const exceptionStatus = (name: string) => this.#exceptions.answeredStatus(name);
    const info = { title, version, description, middleware: this.#middleware };
    return (this.#openapi = buildOpenAPI(info, this.#routes, this.#docComments, this.#types(), exceptionStatus));
  }

  #includeHealth(settings: NonNullable<ReturnType<typeof healthSettings>>): void {
    const router = healthRouter(settings, this);
    const records = this.#include(router).#routes.filter((route) => route.instance === router);
    this.#serving.probe = (request) => {
      const route = records.find((record) => record.path === request.path && (request.method === 'GET' || request.method === 'HEAD'));
      return route && (route.instance as unknown as Record<string, () => Promise<Response>>)[route.handlerName as string]();
    };
  }

  // `builtIn`: a router of the framework's own (docs, health, metrics, static files, favicon), not `includeRouter`'s.
  #include(router: Controller | Class<Controller>, builtIn = true): this {
    let records: RouteRecord[];
    if (router instanceof Controller) records = collectRoutes(router.constructor as Class<Controller>, router);
    else if (isRouterClass(router)) {
      this.#container.check([router as Class<Controller>]);
      records = collectRoutes(router as Class<Controller>);
    } else throw new TrellisError('TRELLIS_ERR_NOT_A_ROUTER', describe(router));
    if (builtIn) for (const record of records) record.builtIn = true;
    for (const record of records) this.#table.add(record.method, record.path, record, record.label);
    this.#routes.splice(this.#routes.length - this.#builtInRoutes, 0, ...records);
    if (!(router instanceof Controller)) this.#routerClasses.push(router as Class<Controller>);
    this.#openapi = undefined;
    return this;
  }

  #assertSettingUp(method: string): void {
    if (this.#frozen) throw new TrellisError('TRELLIS_ERR_APP_STARTED', method);
  }

  // Ends setting up, once: checks what was added since the routers (middleware classes, services with
  // hooks), so wiring mistakes surface before anything is built. Returns what the app builds.
  #freeze(): Class[] {
    const consumers = this.#consumers();
    if (this.#frozen) return consumers;
    this.#container.check(consumers);
    this.#frozen = true;
    const { bodyLimit, uploadLimits, jsonLimits } = this;
    const requestIdHeader = this.#requestIdHeader;
    this.#serving.context = { bodyLimit, uploadLimits, jsonLimits, templates: this.#templates, logger: this.logger, requestIdHeader };
    if (this.#sourceTypes === undefined) this.#sourceTypes = readRouteTypes(this.#routes) ?? false;
    return consumers;
  }

  // The routes' types: read once when the app froze; before that (`openapi()` while setting up), from the
  // routes so far, without keeping them (readRouteTypes caches by file content).
  #types(): TypeTable | undefined {
    if (this.#sourceTypes === false) return undefined;
    return this.#sourceTypes ?? readRouteTypes(this.#routes);
  }

  // Routes of the routers just built are served by them, behind the middleware their constructors added.
  #bind(built: ReadonlyMap<Class, unknown>): void {
    for (const route of this.#routes) {
      const instance = built.get(route.router) as Controller | undefined;
      if (route.instance || !instance) continue;
      route.instance = instance;
      route.middleware = [...middlewareOf(instance), ...route.middleware];
    }
    // The routers' own middleware (and the schemes it declares) is known only now.
    this.#openapi = undefined;
  }

  #consumers(): Class[] {
    return [...this.#routerClasses, ...this.#middlewareClasses()];
  }

  #middlewareClasses(): Class[] {
    const all = [...this.#middleware, ...this.#routes.flatMap((route) => route.middleware)];
    return [...new Set(all.filter((like) => isMiddlewareClass(like)))] as Class[];
  }
}

/** What `trellis/inspect` reads of an app: its container and what it builds. Not part of the public face. */
export interface AppInternals {
  container: Container;
  consumers(): Class[];
  /** Gives the routes of the routers in `built` their instance and middleware (as `start()` does). */
  bind(built: ReadonlyMap<Class, unknown>): void;
  /** What the routes' sources say (read when the app froze, or given): `methodTypes(table, route)` is a route's. */
  sourceTypes(): TypeTable | undefined;
  /** The routes included so far, the framework's own ones included. */
  routes(): readonly RouteRecord[];
}

const internals = new WeakMap<BaseRouter, AppInternals>();

/** The container of `app` and what it builds (for `trellis/inspect`'s dry start). */
export function appInternals(app: BaseRouter): AppInternals {
  return internals.get(app)!;
}

function describe(value: unknown): string {
  return typeof value === 'function' ? value.name || 'anonymous class' : String(value);
}
