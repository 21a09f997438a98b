import type { AppSettings } from './app-options';
import { AppDocument } from './app-document';
import { AppListener } from './app-listener';
import { AppRoutes } from './app-routes';
import type { Class } from './core/types';
import { buildDispatcher } from './dispatch';
import { ExceptionHandlers } from './exception-handlers';
import { TrellisError } from './framework-error';
import { Container } from './injection/container';
import type { Provider } from './injection/provider';
import type { Token } from './injection/token';
import { recordRouteValues } from './injection/route-values';
import { compileDependencies, dependencyParameters, type RouteDependencies } from './pipeline/dependency';
import { Lifecycle, type Built } from './lifecycle/lifecycle';
import type { Middleware, MiddlewareLike } from './middleware';
import type { ExpressMiddleware } from './core/express-middleware';
import type { DocCommentTable, OpenAPIDocument } from './openapi';
import type { PluginApp } from './plugin/plugin';
import { PluginRegistry } from './plugin/registry';
import type { Controller } from './router';
import type { RouteRecord } from './routing/collect';
import type { EndpointRoute } from './routing/endpoint';
import { settingsProvider } from './settings';
import type { TypeTable } from './source/types/table';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './uploads/limits';
import { versionReader, type VersionReader } from './versioning/request-version';
import { documentPlan, type OpenAPIOptions } from './versioning/document';

/**
 * The parts of one app and how they come together (internal; `BaseRouter` is its public face): the container,
 * the routes, the middleware, the exception handlers, the plug-ins, the lifecycle and the listener that serves.
 * Setting up ends once (`freeze`); the start builds everything and compiles the pipelines (`build`).
 */
export class AppCore {
  readonly container = new Container();
  readonly routes = new AppRoutes();
  /** `addMiddleware`'s, inside the plug-ins'. */
  readonly middleware: MiddlewareLike[] = [];
  readonly exceptions: ExceptionHandlers;
  readonly life: Lifecycle;
  readonly serving: AppListener;
  readonly plugins = new PluginRegistry();
  readonly document: AppDocument;
  /** While true (the `AppOptions` plug-ins being registered), routes are kept after every later one. */
  trailing = false;
  #frozen = false;
  /** Header versioning's reader of the version a request asks for, made when setting up ends. */
  #versions: VersionReader | undefined;

  constructor(
    readonly settings: AppSettings,
    readonly facts: PluginApp,
    sources: { docComments?: DocCommentTable; sourceTypes?: TypeTable | false },
    start: () => Promise<void>,
  ) {
    this.life = new Lifecycle(settings.logger);
    this.exceptions = new ExceptionHandlers(settings.logger);
    this.document = new AppDocument(sources.docComments, sources.sourceTypes);
    this.serving = new AppListener(settings.logger, start);
    this.serving.answers = (method, path) => this.routes.table.answers(method, path);
    this.serving.takesUpgrade = (path) => this.routes.takesUpgrade(path);
    this.routes.uriPrefix = settings.versioning.type === 'uri' ? settings.versioning.prefix : undefined;
    // A `@Settings` class nobody provided is its config section, read from the provided Config.
    this.container.autoProvide = settingsProvider;
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  assertSettingUp(method: string): void {
    if (this.#frozen) throw new TrellisError('TRELLIS_ERR_APP_STARTED', method);
  }

  provide(services: ReadonlyArray<Class | object | Provider>): void {
    this.plugins.provided(services);
    // A `@Settings` class given as a service (exported from services/) is its section too, never `new`-built empty.
    for (const service of services) this.container.provide((typeof service === 'function' && settingsProvider(service as Class)) || service);
  }

  include(router: Controller | Class<Controller> | EndpointRoute, builtIn: boolean): RouteRecord[] {
    const trailing = builtIn && this.trailing;
    const records = isEndpoint(router) ? [this.routes.addEndpoint(router, { trailing })] : this.routes.add(router, this.container, { builtIn, trailing });
    for (const record of records) {
      for (const { parameter } of dependencyParameters(record)) this.container.addRoot(record.label, parameter);
    }
    this.document.invalidate();
    return records;
  }

  override(token: Token, replacement: unknown): void {
    this.container.override(token, replacement);
    this.document.invalidate();
  }

  register(plugin: unknown): void {
    this.plugins.register(plugin, {
      app: this.facts,
      include: (router) => this.include(router, true),
      provide: (services) => this.provide(services),
    });
  }

  /** The multipart limits every request gets: the uploads plug-in's, else the defaults. */
  uploadLimits(): Readonly<UploadLimits> {
    return this.plugins.context.uploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  }

  /** Every middleware around every request: the plug-ins' outside the app's own. */
  allMiddleware(): MiddlewareLike[] {
    return [...this.plugins.middleware, ...this.middleware];
  }

  /** What the app builds: the router classes and the middleware classes. */
  consumers(): Class[] {
    return [...this.routes.classes, ...this.routes.middlewareClasses(this.allMiddleware()), ...this.plugins.consumers];
  }

  // Ends setting up, once: checks what was added since the routers (middleware classes, services with hooks), so
  // wiring mistakes surface before anything is built, and gives the listener what every request needs.
  freeze(): Class[] {
    const consumers = this.consumers();
    if (this.#frozen) return consumers;
    this.container.check(consumers);
    // Every route is known now: a defaultVersion none of them declares is refused before anything starts.
    this.#versions = versionReader(this.settings.versioning, this.routes.versions());
    this.#frozen = true;
    const { bodyLimit, jsonLimits, logger, requestIdHeader } = this.settings;
    const { templates } = this.plugins.context;
    this.serving.context = { bodyLimit, uploadLimits: this.uploadLimits(), jsonLimits, templates, logger, requestIdHeader };
    this.serving.observe = this.plugins.observer();
    this.serving.finish = this.plugins.responseHook();
    this.serving.upgrades = this.plugins.upgrades;
    if (this.plugins.answersEarly) this.serving.probe = (request) => this.plugins.probe(request);
    this.document.freeze(this.routes.records);
    return consumers;
  }

  // Builds routers, middleware and services, and the pipelines; they serve once the startup hooks ran. The
  // plug-ins' hooks come first: a service's onStartup() may use what a plug-in opened.
  async build(): Promise<Built> {
    const built = await this.container.build(this.freeze());
    this.bind(built);
    this.plugins.bindInstances(built);
    // Middleware classes routers added in their constructors are known only now.
    const late = this.routes.middlewareClasses(this.allMiddleware()).filter((cls) => !built.has(cls));
    this.container.check(late);
    for (const [cls, instance] of await this.container.build(late)) built.set(cls, instance);
    this.plugins.verify();
    const middleware = this.allMiddleware();
    const pluginMiddleware = this.plugins.middleware;
    const { table, records: routes } = this.routes;
    const sourceTypes = this.document.types(routes);
    const dependencies = await this.dependencies(routes);
    const routeMiddleware = (route: RouteRecord) => this.plugins.routeMiddleware(route);
    const dispatcher = buildDispatcher({ table, routes, pluginMiddleware, middleware: this.middleware, routeMiddleware, built, exceptions: this.exceptions, logger: this.settings.logger, sourceTypes, adaptFunction, dependencies, versions: this.#versions });
    const given = [...routes.map((route) => route.instance), ...middleware].filter((item) => typeof item === 'object');
    const targets = [...this.plugins.targets, ...new Set([...this.container.built, ...given])];
    return { targets, serve: () => (this.serving.dispatcher = dispatcher) };
  }

  // The routes' `@Depends()` parameters, planned by the container (the singletons they take built now) and compiled.
  async dependencies(routes: readonly RouteRecord[]): Promise<Map<RouteRecord, RouteDependencies>> {
    const compiled = new Map<RouteRecord, RouteDependencies>();
    for (const route of routes) {
      const parameters = dependencyParameters(route);
      if (parameters.length) compiled.set(route, compileDependencies(route, await this.container.plan(parameters.map((p) => p.parameter))));
    }
    return compiled;
  }

  /** Marks the app draining and runs the plug-ins' drain hooks (closing long-lived connections), once. */
  drain(): void {
    const draining = this.life.state === 'draining' || this.life.state === 'stopped';
    this.life.drain();
    if (!draining) this.plugins.drain((error) => this.settings.logger.error({ err: error }, 'a plug-in drain hook failed'));
  }

  bind(built: ReadonlyMap<Class, unknown>): void {
    this.routes.bind(built);
    // The routers' own middleware (and the schemes it declares) is known only now.
    this.document.invalidate();
  }

  openapi(options?: OpenAPIOptions): OpenAPIDocument {
    const { title, version, description } = this.settings;
    const info = { title, version, description, middleware: this.allMiddleware() };
    const routes = this.routes.records;
    const plan = documentPlan(this.settings.versioning, this.routes.versions(), routes, options);
    // The headers and query values the routes' dependencies read, as the container resolves them now.
    for (const route of routes) {
      const parameters = dependencyParameters(route);
      if (parameters.length) recordRouteValues(route, this.container.requestValues(parameters.map((p) => p.parameter)));
    }
    return this.document.get(info, plan, (name) => this.exceptions.answeredStatus(name), (document) => this.plugins.contribute(document));
  }
}

function isEndpoint(router: unknown): router is EndpointRoute {
  return typeof router === 'object' && router !== null && typeof (router as EndpointRoute).handler === 'function' && typeof (router as EndpointRoute).owner === 'function';
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
  /** The middleware around every request: the plug-ins', then the app's own. */
  middleware(): readonly MiddlewareLike[];
}

const internals = new WeakMap<object, AppInternals>();

/** Records what `trellis/inspect` reads of `app`: its core's container, consumers, binding, types and routes. */
export function exposeInternals(app: object, core: AppCore): void {
  internals.set(app, {
    container: core.container,
    consumers: () => core.consumers(),
    bind: (built) => core.bind(built),
    sourceTypes: () => core.document.types(core.routes.records),
    routes: () => core.routes.records,
    middleware: () => core.allMiddleware(),
  });
}

/** The container of `app` and what it builds (for `trellis/inspect`'s dry start). */
export function appInternals(app: object): AppInternals {
  return internals.get(app)!;
}

// An Express-style function given as middleware runs through the Express edge, loaded only by an app that has one:
// Express stays out of every other app.
function adaptFunction(fn: ExpressMiddleware): Middleware {
  const { ExpressMiddlewareAdapter } = require('./express/adapter') as typeof import('./express/adapter');
  return new ExpressMiddlewareAdapter(fn);
}
