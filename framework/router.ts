import { metadataChain, metadataOf } from './metadata';
import type { MiddlewareLike } from './middleware';

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
 * Makes the base class of a router: every endpoint declared in the subclass is under `basePath`,
 * which may contain `{name}` parameters.
 *
 * @example
 * ```ts
 * @Injectable()
 * class TaskRouter extends router('/tasks') {
 *   constructor(private readonly tasks: TaskService) { super(); }
 *   @Get() list() { return this.tasks.all(); }
 * }
 * ```
 */
export function router(basePath: string): abstract new () => Controller {
  abstract class Router extends Controller {}
  metadataOf(Router).basePath = basePath;
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
