import { metadataChain, metadataOf } from './metadata';
import type { MiddlewareLike } from './middleware';

const routerMiddleware = new WeakMap<RouterBase, MiddlewareLike[]>();

/** What every router class extends; made by {@link router}. */
export abstract class RouterBase {
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
export function router(basePath: string): abstract new () => RouterBase {
  abstract class Router extends RouterBase {}
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
export function isRouterClass(value: unknown): value is new (...args: never[]) => RouterBase {
  return typeof value === 'function' && value.prototype instanceof RouterBase;
}

export function basePathOf(ctor: Function): string {
  return metadataChain(ctor).find((m) => m.basePath !== undefined)?.basePath ?? '';
}

export function middlewareOf(instance: RouterBase): MiddlewareLike[] {
  return routerMiddleware.get(instance) ?? [];
}
