import { TrellisError } from '../framework-error';
import { metadataOf } from '../metadata';
import { Middleware, type MiddlewareLike } from '../middleware';

/**
 * Route-scoped middleware (guards, NestJS's `@UseGuards`): on a handler, around that route only; on a router
 * class, around each of its routes (as `this.addMiddleware(...)` in its constructor would). Takes what
 * `addMiddleware` takes: `Middleware` classes (built by the app, with injection), instances, or Express
 * `(req, res, next)` functions. It runs before the handler's parameters are read, so a guard's 401 comes
 * before a 422. Order around a route: the app's middleware, the router's (`addMiddleware`), `@Use` on the
 * class, then `@Use` on the method; within one `@Use` and down stacked `@Use` lines, as written.
 *
 * @example
 * ```ts
 * @Injectable()
 * class AdminRouter extends router('/admin') {
 *   @Get('/stats') @Use(RequireToken) stats() { return this.stats.all(); }     // guarded
 *   @Get('/ping') ping() { return 'pong'; }                                   // open
 * }
 *
 * @Use(RequireToken, AuditLog)                                                 // every route of the router
 * class BillingRouter extends router('/billing') { ... }
 * ```
 */
export function Use(...middleware: MiddlewareLike[]): ClassDecorator & MethodDecorator {
  for (const like of middleware) {
    // A class still undefined here is usually an import cycle: say so at load time, not at the first request.
    if (!(like instanceof Middleware) && typeof like !== 'function') {
      throw new TrellisError('TRELLIS_ERR_INVALID_MIDDLEWARE', describe(like));
    }
  }
  return ((target: object, handler?: string | symbol) => {
    // Decorators apply bottom-up: prepending keeps stacked `@Use` lines in reading order.
    if (handler === undefined) {
      metadataOf(target).middleware.unshift(...middleware);
      return;
    }
    const routes = metadataOf(target.constructor).routeMiddleware;
    routes.set(handler, [...middleware, ...(routes.get(handler) ?? [])]);
  }) as ClassDecorator & MethodDecorator;
}

function describe(value: unknown): string {
  return value === undefined ? 'undefined (an import cycle?)' : String(value);
}
