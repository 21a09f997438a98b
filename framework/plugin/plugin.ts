import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../core/logger';
import type { TemplateRenderer } from '../core/template-renderer';
import type { Class } from '../core/types';
import type { Readiness } from '../health/readiness';
import type { Provider } from '../injection/provider';
import type { AppState } from '../lifecycle/state';
import type { Middleware, MiddlewareLike } from '../middleware';
import type { OpenAPIDocument } from '../openapi/types';
import type { Request } from '../request';
import type { Response } from '../response';
import type { Controller } from '../router';
import type { EndpointRoute } from '../routing/endpoint';
import type { RouteInfo } from '../routing/route-info';
import type { UploadLimits } from '../uploads/limits';

/**
 * A feature that adds itself to an app through {@link PluginHost}: routes, middleware, services, lifecycle hooks,
 * OpenAPI contributions, its config.yaml section. The docs pages, health probes, metrics, static files, the
 * favicon, templates and upload limits are plug-ins; so is yours. `app.register(plugin)` calls `register` once,
 * at once, while the app is setting up; a second plug-in of the same `name` is refused.
 *
 * @example
 * ```ts
 * import { BaseRouter, Middleware } from 'trellis';
 * import type { Plugin } from 'trellis/plugins';
 *
 * class PoweredBy extends Middleware {
 *   async dispatch(request, next) {
 *     const response = await next(request);
 *     response.headers.set('x-powered-by', 'trellis');
 *     return response;
 *   }
 * }
 * const poweredBy: Plugin = { name: 'powered-by', register: (host) => host.use(new PoweredBy()) };
 * const app = new BaseRouter().register(poweredBy);
 * ```
 */
export interface Plugin {
  /** Unique in one app (`docs`, `health`, `audit-log`): names the plug-in in errors, hooks and readiness checks. */
  readonly name: string;
  /** Adds the plug-in's parts through `host`. Synchronous: slow or async work goes in `host.onStartup`. */
  register(host: PluginHost): void;
}

/** What a plug-in may read of the app it is registered on. */
export interface PluginApp {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly logger: Logger;
  /** `'setting-up'` while plug-ins register; see `AppState`. */
  readonly state: AppState;
  /** Every route of the app so far, the plug-ins' included. */
  readonly routes: readonly RouteInfo[];
  /** Runs every health check (services' `healthCheck()` and the plug-ins' `host.healthCheck`). */
  readiness(timeoutMs?: number): Promise<Readiness>;
  /** The app's OpenAPI document (cached; the plug-ins' contributions applied); `{ version }` is one API version's. */
  openapi(options?: { version?: string }): OpenAPIDocument;
  /** The API versions the routes declare, in order (`[]` without versioned routers). */
  readonly apiVersions: readonly string[];
}

/** How a plug-in's router is served. */
export interface PluginRouteOptions {
  /**
   * Its routes answer before the app has started (while services are built and startup hooks run), as the health
   * probes do: only a router instance whose handlers take no parameters, answering `GET` (and `HEAD`) at a fixed path.
   */
  beforeStart?: boolean;
}

/** What a plug-in may give every request: the engine `render()` uses, the multipart limits. */
export interface PluginContext {
  templates?: TemplateRenderer;
  uploadLimits?: Readonly<UploadLimits>;
}

/**
 * Sees every request as it arrives, before routing and middleware (refused, unmatched and early answers too), with
 * the Node response whose `finish`/`close` tell when it ends: what the metrics count. Keep it cheap.
 */
export type RequestObserver = (request: Request, res: ServerResponse) => void;

/**
 * Changes every response the app is about to write (routes, docs pages, static files, 404s, errors), after all
 * middleware, in the one writer: headers (CORS, `Vary`), the status (a 304), the body (an ETag computed from it, a
 * compressed copy, a stream piped through a compressor). Synchronous, and cheap: it runs on every response. What it
 * throws becomes a 500, logged.
 */
export type ResponseHook = (request: Request, response: Response) => void;

/** When a {@link ResponseHook} runs: `'headers'` hooks (the default) first, then the `'encode'` ones (compression), each in registration order. */
export interface ResponseHookOptions {
  stage?: 'headers' | 'encode';
}

/**
 * Picks the middleware a plug-in adds to one route (a rate limit from `@RateLimit`, say), once, when the app builds
 * its pipelines: an instance, or undefined to leave the route alone. `at: 'outer'` (the default) runs it before the
 * app's own middleware (`addMiddleware`, config.yaml `middleware:`) and the route's (its guards), so it sees the
 * requests they refuse; `'inner'` after them, just before parameters are read (so that `request.user` is known).
 */
export type RouteMiddlewareSelector = (route: RouteInfo) => Middleware | undefined;

/**
 * Takes an HTTP upgrade request (`Upgrade: websocket`) the app's server received, once the app has started: returns
 * `true` when it owns the socket (it answers, upgrades or destroys it), `false` to leave it to the next handler. A
 * request no handler takes gets a 404 and is closed.
 */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

/**
 * The app as a plug-in sees it while registering (see docs/reference/plugins.md for the order guarantees). Every
 * method throws `TRELLIS_ERR_PLUGIN_REGISTER` once `register` has returned: a plug-in adds its parts then, never later.
 *
 * @example
 * ```ts
 * const plugin: Plugin = {
 *   name: 'clock',
 *   register(host) {
 *     host.provide(Clock);
 *     host.onStartup(() => host.app.logger.info('clock ready'));
 *     host.openapi((document) => void (document.tags ??= []).push({ name: 'clock' }));
 *   },
 * };
 * ```
 */
export interface PluginHost {
  readonly app: PluginApp;
  /**
   * Mounts a router (class or instance) as `includeRouter` does, marked `builtIn` (out of doctor's route counts),
   * or one function route ({@link EndpointRoute}: what a WebSocket gateway is to the app). A route that clashes
   * with another, the user's or a plug-in's, is `TRELLIS_ERR_DUPLICATE_ROUTE` naming both.
   */
  route(router: Controller | Class<Controller> | EndpointRoute, options?: PluginRouteOptions): void;
  /** Middleware around every request, unmatched ones included: outside the app's own `addMiddleware` ones, in registration order. */
  use(...middleware: MiddlewareLike[]): void;
  /** Services for injection, as `app.provide`. */
  provide(...services: Array<Class | object | Provider>): void;
  /** The config section of a `@Settings(section)` class, checked, from the `Config` the app was given (provide it before registering). */
  settings<T extends object>(cls: Class<T>): T;
  /** Runs once when the app starts, after services are built, before the services' own `onStartup()` hooks. */
  onStartup(hook: () => unknown): void;
  /** Runs once when the app stops, after requests drained and the services' `onShutdown()`, in reverse registration order. */
  onShutdown(hook: () => unknown): void;
  /** A readiness check for `/readyz`, reported under the plug-in's name: throwing or returning `false` is not ready. */
  healthCheck(check: () => unknown): void;
  /** Runs when the app starts, once its routes are final, before any startup hook: what it throws refuses the start, as is. */
  verify(check: () => void): void;
  /** Changes the OpenAPI document each time it is built (security schemes, tags, servers), in registration order. */
  openapi(contribute: (document: OpenAPIDocument) => void): void;
  /** Gives every request's context a value (`render()`'s engine, multipart limits); one plug-in per key. */
  requestContext(values: PluginContext): void;
  /** See {@link RequestObserver}. */
  observe(observer: RequestObserver): void;
  /** See {@link ResponseHook}: changes every response before it is written. */
  onResponse(hook: ResponseHook, options?: ResponseHookOptions): void;
  /** See {@link RouteMiddlewareSelector}: middleware for the routes the selector picks. */
  routeMiddleware(select: RouteMiddlewareSelector, options?: { at?: 'outer' | 'inner' }): void;
  /** See {@link UpgradeHandler}: takes HTTP upgrade requests (WebSockets), in registration order. */
  upgrade(handler: UpgradeHandler): void;
  /** Runs when the app starts draining (`closeGracefully`, SIGTERM), before the server stops accepting: close long-lived connections here (WebSockets: 1001). */
  onDrain(hook: () => void): void;
  /**
   * Has the app build `cls` when it starts, injecting its constructor as it does a router's (its parameters are
   * checked when the app freezes; its `onStartup`/`onShutdown` hooks run as a service's), and returns a function
   * giving that instance once the app has started (before, it throws `TRELLIS_ERR_APP_NOT_STARTED`).
   */
  instance<T>(cls: Class<T>): () => T;
}

/**
 * Whether `value` is a plug-in: an object with a string `name` and a `register` function.
 *
 * @example
 * ```ts
 * isPlugin({ name: 'x', register() {} }); // true
 * ```
 */
export function isPlugin(value: unknown): value is Plugin {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Plugin).name === 'string' &&
    (value as Plugin).name !== '' &&
    typeof (value as Plugin).register === 'function'
  );
}
