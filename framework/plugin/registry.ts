import type { ServerResponse } from 'node:http';
import { Config } from '../config';
import { ConfigSectionError } from '../config-section';
import type { Class } from '../core/types';
import { TrellisError } from '../framework-error';
import type { Provider } from '../injection/provider';
import { HOOK_OWNER } from '../lifecycle/hooks';
import type { MiddlewareLike } from '../middleware';
import type { OpenAPIDocument } from '../openapi/types';
import type { Request } from '../request';
import type { Response } from '../response';
import { Controller } from '../router';
import type { RouteRecord } from '../routing/collect';
import type { EndpointRoute } from '../routing/endpoint';
import { settingsSectionOf } from '../settings';
import type { RouteInfo } from '../routing/route-info';
import type { Middleware } from '../middleware';
import {
  isPlugin,
  type Plugin,
  type PluginApp,
  type PluginContext,
  type PluginHost,
  type RequestObserver,
  type ResponseHook,
  type RouteMiddlewareSelector,
  type UpgradeHandler,
} from './plugin';

/** What the app lends the plug-ins: its facts, and its own way to mount routers and provide services. */
export interface PluginSurface {
  readonly app: PluginApp;
  /** Mounts a plug-in's router (builtIn), or its function route, and returns its routes. */
  include(router: Controller | Class<Controller> | EndpointRoute): RouteRecord[];
  provide(services: Array<Class | object | Provider>): void;
}

/** A lifecycle target holding one hook of a plug-in, named by it (see `ownerName`). */
interface PluginHook {
  [HOOK_OWNER]: string;
  onStartup?(): unknown;
  onShutdown?(): unknown;
  healthCheck?(): unknown;
}

/**
 * The plug-ins of one app and what they gave it, in registration order: middleware, lifecycle targets, start-time
 * checks, OpenAPI contributions, request-context values, early routes and request observers. The app reads these
 * when it builds; `register` is the one way in.
 */
export class PluginRegistry {
  readonly plugins: Plugin[] = [];
  /** Middleware of the plug-ins, run outside the app's own. */
  readonly middleware: MiddlewareLike[] = [];
  /** Lifecycle targets, one per hook, in the order registered: what starts before the services. */
  readonly targets: PluginHook[] = [];
  readonly context: PluginContext = {};
  readonly #verifiers: Array<() => void> = [];
  readonly #contributors: Array<(document: OpenAPIDocument) => void> = [];
  readonly #contextOwners = new Map<string, string>();
  readonly #early: RouteRecord[] = [];
  readonly #observers: RequestObserver[] = [];
  readonly #responseHooks: ResponseHook[] = [];
  readonly #encoders: ResponseHook[] = [];
  readonly #routeSelectors: Array<{ select: RouteMiddlewareSelector; inner: boolean }> = [];
  /** `host.upgrade` handlers, in registration order. */
  readonly upgrades: UpgradeHandler[] = [];
  readonly #drainHooks: Array<() => void> = [];
  /** Classes the plug-ins asked the app to build (`host.instance`), and what it built for them once started. */
  readonly consumers: Class[] = [];
  readonly #instances = new Map<Class, unknown>();
  #config: Config | undefined;

  /** Calls `plugin.register` with a host over `surface`; what goes wrong is a coded error naming the plug-in. */
  register(plugin: unknown, surface: PluginSurface): void {
    if (!isPlugin(plugin)) throw new TrellisError('TRELLIS_ERR_NOT_A_PLUGIN', describe(plugin));
    const { name } = plugin;
    if (this.plugins.some((other) => other.name === name)) throw new TrellisError('TRELLIS_ERR_PLUGIN_DUPLICATE', name);
    this.plugins.push(plugin);
    let open = true;
    const host = this.#host(name, surface, () => open);
    try {
      const result: unknown = plugin.register(host);
      if (result instanceof Promise || typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
        Promise.resolve(result).catch(() => {});
        throw misuse(name, 'register() returned a promise: it runs synchronously; do async work in host.onStartup()');
      }
    } catch (error) {
      throw registerFailure(name, error);
    } finally {
      open = false;
    }
  }

  /** Remembers the app's `Config` among provided services, for `host.settings()`. */
  provided(services: ReadonlyArray<Class | object | Provider>): void {
    for (const service of services) {
      if (service instanceof Config) this.#config = service;
      else if (isConfigValue(service)) this.#config = service.useValue;
    }
  }

  /** Runs every `host.verify` check, in registration order. */
  verify(): void {
    for (const check of this.#verifiers) check();
  }

  /** Applies every `host.openapi` contribution to a newly built document. */
  contribute(document: OpenAPIDocument): OpenAPIDocument {
    for (const contribute of this.#contributors) contribute(document);
    return document;
  }

  /** The answer of a `beforeStart` route to `request`, or undefined (see `AppListener.probe`). */
  probe(request: Request): Promise<Response> | undefined {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const route = this.#early.find((record) => record.path === request.path);
    if (!route) return undefined;
    return Promise.resolve((route.instance as unknown as Record<string | symbol, () => Response | Promise<Response>>)[route.handlerName]());
  }

  /** Whether a plug-in mounted routes that answer before the start. */
  get answersEarly(): boolean {
    return this.#early.length > 0;
  }

  /** One function calling every `host.observe` observer, or undefined when there is none. */
  observer(): RequestObserver | undefined {
    const observers = [...this.#observers];
    if (observers.length < 2) return observers[0];
    return (request: Request, res: ServerResponse) => {
      for (const observe of observers) observe(request, res);
    };
  }

  /** One function running every `host.onResponse` hook (the `'encode'` ones last), or undefined when there is none. */
  responseHook(): ResponseHook | undefined {
    const hooks = [...this.#responseHooks, ...this.#encoders];
    if (hooks.length < 2) return hooks[0];
    return (request, response) => {
      for (const hook of hooks) hook(request, response);
    };
  }

  /** The middleware the plug-ins add to `route`: before its own (`outer`) and after (`inner`). */
  routeMiddleware(route: RouteInfo): { outer: Middleware[]; inner: Middleware[] } {
    const outer: Middleware[] = [];
    const inner: Middleware[] = [];
    for (const { select, inner: isInner } of this.#routeSelectors) {
      const middleware = select(route);
      if (middleware) (isInner ? inner : outer).push(middleware);
    }
    return { outer, inner };
  }

  /** Runs every `host.onDrain` hook; one that throws is reported through `fail` and the others still run. */
  drain(fail: (error: unknown) => void): void {
    for (const hook of this.#drainHooks) {
      try {
        hook();
      } catch (error) {
        fail(error);
      }
    }
  }

  /** Gives the `host.instance` getters the instances the app built. */
  bindInstances(built: ReadonlyMap<Class, unknown>): void {
    for (const cls of this.consumers) if (built.has(cls)) this.#instances.set(cls, built.get(cls));
  }

  #host(name: string, surface: PluginSurface, isOpen: () => boolean): PluginHost {
    const open = () => {
      if (!isOpen()) throw misuse(name, 'it used its host after register() returned');
    };
    const hook = (part: Omit<PluginHook, typeof HOOK_OWNER>) => void this.targets.push({ [HOOK_OWNER]: name, ...part });
    return {
      app: surface.app,
      route: (router, options = {}) => {
        open();
        if (options.beforeStart && !(router instanceof Controller)) throw misuse(name, 'a beforeStart router must be an instance (nothing is injected before the start)');
        const records = surface.include(router);
        if (options.beforeStart) this.#early.push(...records);
      },
      use: (...middleware) => {
        open();
        this.middleware.push(...middleware);
      },
      provide: (...services) => {
        open();
        this.provided(services);
        surface.provide(services);
      },
      settings: <T extends object>(cls: Class<T>): T => {
        open();
        const section = settingsSectionOf(cls);
        if (section === undefined) throw misuse(name, `settings(${describe(cls)}): the class has no @Settings(section)`);
        return (this.#config ?? new Config({})).section(section, cls);
      },
      onStartup: (onStartup) => {
        open();
        hook({ onStartup });
      },
      onShutdown: (onShutdown) => {
        open();
        hook({ onShutdown });
      },
      healthCheck: (healthCheck) => {
        open();
        hook({ healthCheck });
      },
      verify: (check) => {
        open();
        this.#verifiers.push(check);
      },
      openapi: (contribute) => {
        open();
        this.#contributors.push(contribute);
      },
      observe: (observer) => {
        open();
        this.#observers.push(observer);
      },
      onResponse: (hook, options = {}) => {
        open();
        (options.stage === 'encode' ? this.#encoders : this.#responseHooks).push(hook);
      },
      routeMiddleware: (select, options = {}) => {
        open();
        this.#routeSelectors.push({ select, inner: options.at === 'inner' });
      },
      upgrade: (handler) => {
        open();
        this.upgrades.push(handler);
      },
      onDrain: (drainHook) => {
        open();
        this.#drainHooks.push(drainHook);
      },
      instance: <T>(cls: Class<T>): (() => T) => {
        open();
        if (!this.consumers.includes(cls)) this.consumers.push(cls);
        return () => {
          if (!this.#instances.has(cls)) throw new TrellisError('TRELLIS_ERR_APP_NOT_STARTED', cls.name);
          return this.#instances.get(cls) as T;
        };
      },
      requestContext: (values) => {
        open();
        for (const key of Object.keys(values) as Array<keyof PluginContext>) {
          const owner = this.#contextOwners.get(key);
          if (owner !== undefined) throw misuse(name, `the request context's ${key} is set by plug-in ${owner} already`);
          this.#contextOwners.set(key, name);
          (this.context as Record<string, unknown>)[key] = values[key];
        }
      },
    };
  }
}

function misuse(plugin: string, reason: string): TrellisError {
  return new TrellisError('TRELLIS_ERR_PLUGIN_REGISTER', plugin, reason);
}

// A config section that does not fit stays itself, so `trellis run` and `doctor` point at its line in config.yaml.
function registerFailure(plugin: string, error: unknown): unknown {
  if (error instanceof ConfigSectionError || (error instanceof TrellisError && ['TRELLIS_ERR_PLUGIN_REGISTER', 'TRELLIS_ERR_CONFIG_VALUE'].includes(error.code))) {
    return error;
  }
  const failure = misuse(plugin, error instanceof Error ? error.message.split('\n')[0] : String(error));
  (failure as Error & { cause?: unknown }).cause = error;
  return failure;
}

function isConfigValue(service: unknown): service is { provide: typeof Config; useValue: Config } {
  const provider = service as { provide?: unknown; useValue?: unknown };
  return provider !== null && typeof provider === 'object' && provider.provide === Config && provider.useValue instanceof Config;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return value.name || 'anonymous class';
  if (typeof value === 'object' && value !== null) return `an object (${Object.keys(value).join(', ') || 'no keys'})`;
  return String(value);
}
