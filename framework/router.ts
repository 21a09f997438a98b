import { metadataChain, metadataOf } from './metadata';
import type { MiddlewareLike } from './middleware';
import { checkedVersions, setRouterVersions } from './versioning/router-version';

const routerMiddleware = new WeakMap<Controller, MiddlewareLike[]>();

/**
 * The superclass of every router class (`class TaskRouter extends router('/tasks')`): what `includeRouter`
 * takes, as an instance or a class. Named apart from the app, {@link BaseRouter}, on purpose.
 *
 * @example
 * ```ts
 * const tasks: Controller = new TaskRouter();
 * tasks.addMiddleware(RequireToken);
 * ```
 */
export abstract class Controller {
  /**
   * Adds middleware to this router's routes only. It runs before parameters are read and validated,
   * so it can reject a request (401, 403) before a 422.
   */
  addMiddleware(...middleware: MiddlewareLike[]): this {
    const list = routerMiddleware.get(this) ?? [];
    list.push(...middleware);
    routerMiddleware.set(this, list);
    return this;
  }
}

/**
 * The second argument of {@link router}.
 *
 * @example
 * ```ts
 * class TaskRouterV1 extends router('/tasks', { version: '1' }) {}
 * ```
 */
export interface RouterOptions {
  /**
   * The API version(s) of the router's routes: `'1'`, or `['1', '2']` for routes both versions share. Served at
   * `/v1/...` (URI versioning, the default) or at their own path for the version a header names (`AppOptions.versioning`).
   * Without it the routes are version-neutral: served for every version, at their own path.
   */
  version?: string | readonly string[];
}

/**
 * Makes the base class of a router: every endpoint declared in the subclass is under `basePath`,
 * which may contain `{name}` parameters; `version` makes them routes of that API version.
 *
 * @example
 * ```ts
 * @Injectable()
 * class TaskRouter extends router('/tasks') {
 *   constructor(private readonly tasks: TaskService) { super(); }
 *   @Get() list() { return this.tasks.all(); }
 * }
 * class TaskRouterV2 extends router('/tasks', { version: '2' }) {
 *   @Get() list() { return { items: [] }; }   // GET /v2/tasks
 * }
 * ```
 */
export function router(basePath: string, options: RouterOptions = {}): abstract new () => Controller {
  abstract class Router extends Controller {}
  metadataOf(Router).basePath = basePath;
  if (options.version !== undefined) setRouterVersions(Router, checkedVersions(options.version, `router('${basePath}')`));
  return Router;
}

/**
 * Whether `value` is a router class (extends `router(...)`): what project discovery mounts.
 *
 * @example
 * ```ts
 * isRouterClass(TaskRouter); // true
 * isRouterClass(TaskService); // false
 * ```
 */
export function isRouterClass(value: unknown): value is new (...args: never[]) => Controller {
  return typeof value === 'function' && value.prototype instanceof Controller;
}

export function basePathOf(ctor: Function): string {
  return metadataChain(ctor).find((m) => m.basePath !== undefined)?.basePath ?? '';
}

export function middlewareOf(instance: Controller): MiddlewareLike[] {
  return routerMiddleware.get(instance) ?? [];
}
