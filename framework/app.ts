import { AppCore, appInternals, exposeInternals, type AppInternals } from './app-core';
import { appSettings, type AppOptions } from './app-options';
import type { Class, Controller, ExceptionHandler, JsonLimits, Logger, MiddlewareLike, OpenAPIDocument, Plugin, Provider, Readiness, AppState, RouteInfo, Token } from './app-types';
import type { RequestListener } from './core/listener';
import * as builtin from './plugin/builtin';
import type { OpenAPIOptions } from './versioning/document';
import { attachApp, listen, type ListenOptions, type Server, type UpgradeListener } from './server';

export type { AppOptions } from './app-options';
export type { RequestListener } from './core/listener';
export { appInternals, type AppInternals };

/**
 * The application: routers, services, middleware, exception handlers and plug-ins, served by `listen()` or `handler`.
 * Everything is set up before it serves: after `start()`, `listen()`, reading `handler` or the first
 * request, the methods that add to it throw `TRELLIS_ERR_APP_STARTED`. `start()` builds every router,
 * middleware and service (dependencies first, awaiting async factories), runs the plug-ins' startup hooks, then
 * the services' `onStartup()` hooks in that order, and compiles each route's pipeline once; `stop()` runs the
 * shutdown hooks in reverse. The docs pages, health probes, metrics, static files, the favicon, templates and
 * upload limits are plug-ins (`register`); the options and methods named after them are sugar for registering them.
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
  readonly #core: AppCore;

  constructor(options: AppOptions = {}) {
    const settings = appSettings(options);
    ({ title: this.title, version: this.version, description: this.description } = settings);
    ({ bodyLimit: this.bodyLimit, jsonLimits: this.jsonLimits, logger: this.logger } = settings);
    this.#core = new AppCore(settings, this, options, () => this.start());
    // The plug-ins AppOptions asks for: their routes stay after every route added later.
    this.#core.trailing = true;
    for (const plugin of builtin.defaultPlugins(options)) this.#core.register(plugin);
    this.#core.trailing = false;
    exposeInternals(this, this.#core);
  }

  /**
   * Registers a plug-in: calls its `register(host)` now, which adds its routes, middleware, services, lifecycle
   * hooks and OpenAPI contributions (see docs/reference/plugins.md). A second plug-in of one name is
   * `TRELLIS_ERR_PLUGIN_DUPLICATE`; a `register` that throws is `TRELLIS_ERR_PLUGIN_REGISTER` naming the plug-in.
   *
   * @example
   * ```ts
   * app.provide(new Config(values)).register(auditLog());   // a plug-in reading its config section comes after Config
   * ```
   */
  register(plugin: Plugin): this {
    this.#core.assertSettingUp('register');
    this.#core.register(plugin);
    return this;
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
    this.#core.assertSettingUp('provide');
    this.#core.provide(services);
    return this;
  }

  /**
   * Replaces what `token` gives (a service, a request-scoped provider, a token's value) by `replacement`, as
   * FastAPI's `dependency_overrides` and NestJS's `overrideProvider`: a value (handed out as is; one replacing a
   * request-scoped provider is given to every request, and its `onRequestEnd` runs after each), or a provider
   * object (`{ useClass, scope: 'request' }` makes a fresh one per request). Whoever asks for `token` gets it: routers,
   * services, other providers, `@Depends()` parameters. Called before the app starts, in any order with `provide`
   * (the override wins); after, `TRELLIS_ERR_APP_STARTED`. `TestClient`'s `overrides` option calls it.
   *
   * @example
   * ```ts
   * app.override(Mailer, { send: async () => {} });
   * app.override(UnitOfWork, { provide: UnitOfWork, scope: 'request', useClass: InMemoryUnitOfWork });
   * ```
   */
  override<T>(token: Token<T>, replacement: T | Provider<T>): this {
    this.#core.assertSettingUp('override');
    this.#core.override(token, replacement);
    return this;
  }

  /**
   * Mounts a router: an instance, or a router class that the app builds when it starts, injecting its
   * constructor parameters from provided services (provide them first: each parameter is checked here).
   * Duplicate routes fail here, naming both handlers.
   */
  includeRouter(router: Controller | Class<Controller>): this {
    this.#core.assertSettingUp('includeRouter');
    this.#core.include(router, false);
    return this;
  }

  /**
   * Adds middleware around every request, unmatched ones (404, 405) included. Runs in the order added, inside the
   * plug-ins' middleware.
   */
  addMiddleware(...middleware: MiddlewareLike[]): this {
    this.#core.assertSettingUp('addMiddleware');
    this.#core.middleware.push(...middleware);
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
    this.#core.assertSettingUp('addExceptionHandler');
    this.#core.exceptions.add(errorClass, handler);
    return this;
  }

  /**
   * Serves the files of `dir` under `urlPrefix` as routes (`GET {urlPrefix}/*`, listed in `app.routes`, out
   * of the OpenAPI document) with ETag, Range and HEAD. Dotfiles, `..` and encoded separators, and symlinks
   * leading out of `dir` are a JSON 404; the directory must exist now. Routers' own routes win over it.
   * Sugar for `register(staticFiles(urlPrefix, dir))`.
   *
   * @example
   * ```ts
   * app.mountStatic('/static', 'static');   // GET /static/css/app.css -> static/css/app.css
   * ```
   */
  mountStatic(urlPrefix: string, dir: string): this {
    this.#core.assertSettingUp('mountStatic');
    return this.register(builtin.staticFiles(urlPrefix, dir));
  }

  /** The directories given to `mountStatic` (or registered with `staticFiles`), as absolute paths. */
  get staticMounts(): readonly builtin.StaticMount[] {
    return builtin.staticMounts(this.#core.plugins.plugins);
  }

  /**
   * Sets the directory `render(name, context)` reads templates from (nunjucks, autoescaping on). Configured
   * once, here; templates are compiled on first use and cached. Sugar for `register(templates(dir, options))`.
   *
   * @example
   * ```ts
   * app.templates('templates', { filters: { upper: (s: string) => s.toUpperCase() } });
   * ```
   */
  templates(dir: string, options: builtin.TemplateOptions = {}): this {
    this.#core.assertSettingUp('templates');
    return this.register(builtin.templates(dir, options));
  }

  /** The absolute templates directory, if `templates(dir)` was called. */
  get templatesDir(): string | undefined {
    return builtin.templatesDir(this.#core.plugins.plugins);
  }

  /**
   * Serves `file` at `GET /favicon.ico` (a route out of the OpenAPI document) as `image/x-icon`, with an
   * ETag and a day of caching; the file must exist now. Sugar for `register(favicon(file))`.
   *
   * @example
   * ```ts
   * app.favicon('favicon.ico');
   * ```
   */
  favicon(file: string): this {
    this.#core.assertSettingUp('favicon');
    return this.register(builtin.favicon(file));
  }

  /** The multipart limits every request gets: `AppOptions.uploads` (the uploads plug-in) over the defaults. */
  get uploadLimits(): Readonly<builtin.UploadLimits> {
    return this.#core.uploadLimits();
  }

  /**
   * Every endpoint the app serves: the routers' and plug-ins' routes (static files, favicon...) in the order
   * they were added, then those of the `AppOptions` plug-ins: metrics, docs pages (unless `docs: false`), health probes.
   */
  get routes(): readonly RouteInfo[] {
    return this.#core.routes.records;
  }

  /**
   * The app as a Node request listener, for `http.createServer`, test injectors, or an Express app
   * (`expressApp.use('/api', app.handler)`: the docs pages then link under `/api`; a request none of the app's routes
   * answers goes on to the next Express handler, as from an Express router). Reading it ends setting up
   * and checks the wiring (middleware, dependencies), so configuration errors surface at startup. The first
   * request starts the app unless `start()` was awaited (health probes answer without waiting for it).
   */
  get handler(): RequestListener {
    this.#core.freeze();
    return this.#core.serving.listener;
  }

  /**
   * The app's HTTP upgrade listener (WebSockets), for `server.on('upgrade', app.upgrade)` on a server you created
   * yourself: `listen()` and `trellis run` attach it. An upgrade request waits for the start, then goes to the
   * plug-ins that take upgrades (the WebSocket gateways); one that none takes gets a 404 and is closed. Undefined
   * when no plug-in takes upgrades: the server then treats an `Upgrade` header as Node does, as a plain request.
   *
   * @example
   * ```ts
   * const server = http.createServer(app.handler);
   * if (app.upgrade) server.on('upgrade', app.upgrade);
   * ```
   */
  get upgrade(): UpgradeListener | undefined {
    this.#core.freeze();
    return this.#core.plugins.upgrades.length || this.#core.routes.upgrades ? this.#core.serving.upgrade : undefined;
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
  get metrics(): builtin.Registry | undefined {
    return builtin.metricsRegistry(this.#core.plugins.plugins);
  }

  /**
   * Starts the app (see {@link start}), then an HTTP server: the port opens once every startup hook has run.
   * `closeGracefully(server)` lets in-flight requests finish, then stops the app (shutdown hooks).
   */
  async listen(options: ListenOptions = {}): Promise<Server> {
    await this.start();
    try {
      const server = await listen(this.handler, options, this.upgrade);
      attachApp(server, this);
      return server;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Where the app is in its life: `'setting-up'`, `'starting'`, `'ready'`, `'draining'` or `'stopped'`. */
  get state(): AppState {
    return this.#core.life.state;
  }

  /**
   * Builds every router, middleware and service the app needs (and every provided service with lifecycle
   * hooks), dependencies first, awaiting async factories; runs the plug-ins' checks (`host.verify`), then their
   * startup hooks, then the services' `onStartup()` hooks in that order; compiles the pipelines. Runs once: later
   * calls return the same promise. A hook that throws stops it: the hooks that ran get their `onShutdown()`, and it
   * rejects with `TRELLIS_ERR_STARTUP_FAILED` naming the hook (its error as `cause`). Serving `handler` yourself,
   * call it first; otherwise the first request does.
   *
   * @example
   * ```ts
   * await app.start();               // Database.onStartup() has connected
   * http.createServer(app.handler).listen(8000);
   * ```
   */
  start(): Promise<void> {
    return this.#core.life.start(() => this.#core.build());
  }

  /**
   * Marks the app as shutting down: `/readyz` answers 503 from now on, so load balancers stop sending
   * requests, while requests keep being served. `closeGracefully()` calls it before it stops accepting.
   */
  drain(): void {
    this.#core.drain();
  }

  /**
   * Runs the `onShutdown()` hooks of everything started, in reverse startup order (the services', then the
   * plug-ins'), each logged; one that throws is logged and the next still runs. With `timeoutMs` (10 s by default),
   * hooks still running then are abandoned and the rest skipped. Resolves `true` when every hook finished. Runs
   * once; call it after requests drained.
   *
   * @example
   * ```ts
   * await closeGracefully(server);   // drains, then calls app.stop() within the same grace period
   * await app.stop();                // an app served by your own server
   * ```
   */
  stop(options: { timeoutMs?: number } = {}): Promise<boolean> {
    return this.#core.life.stop(options.timeoutMs ?? 10_000);
  }

  /**
   * Runs every `healthCheck()` (the services' and the plug-ins'), each within `timeoutMs`, at once: what `/readyz`
   * answers from (which runs it one at a time and reuses its result for `health.checkInterval` ms). A check's change
   * of state is logged.
   */
  readiness(timeoutMs = 5_000): Promise<Readiness> {
    return this.#core.life.readiness(timeoutMs);
  }

  /**
   * The OpenAPI 3.1 document of the routes, built on first call (reading handler doc comments from their
   * source files, or the `docComments` option), changed by the plug-ins' contributions, and cached until another
   * router is included or the app starts (middleware that routers add in their constructors, and the security it
   * declares, is known from then on).
   *
   * With API versions (`router('/tasks', { version: '1' })`), `{ version: '1' }` is one version's document: its
   * routes and the version-neutral ones. Without it: every route under URI versioning, the default version's (else
   * the latest's) under header versioning. A version no route declares is `TRELLIS_ERR_VERSIONING`.
   *
   * @example
   * ```ts
   * writeFileSync('openapi.json', JSON.stringify(app.openapi(), null, 2));
   * writeFileSync('openapi-v1.json', JSON.stringify(app.openapi({ version: '1' }), null, 2));
   * ```
   */
  openapi(options?: OpenAPIOptions): OpenAPIDocument {
    return this.#core.openapi(options);
  }

  /** The API versions the routes declare (`router('/tasks', { version: '1' })`, `@Version`), in order: `['1', '2']`. */
  get apiVersions(): readonly string[] {
    return this.#core.routes.versions();
  }
}
