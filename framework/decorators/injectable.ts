import { recordScope, type InjectableOptions } from '../injection/scope';

/**
 * Marks a class whose constructor parameters are injected by type. TypeScript records parameter types
 * (`design:paramtypes`) only for decorated classes, so a router or service that takes services needs it.
 * A service takes part in the app's life by defining `onStartup()`, `onShutdown()` or `healthCheck()`: the app
 * finds them by name.
 *
 * `{ scope: 'request' }` makes one instance per request that needs it (a handler's `@Depends()` parameter, or
 * another request-scoped class): its constructor may take singletons, other request-scoped classes, the
 * `Request`, and values read with `@Header`, `@Query` and `@Req`; its `onRequestEnd(outcome)` runs once the
 * request's response is ready. A singleton (router, middleware, service) that takes one is
 * `TRELLIS_ERR_SCOPE_WIDENING`.
 *
 * @example
 * ```ts
 * @Injectable()
 * class TaskRouter extends router('/tasks') {
 *   constructor(private readonly tasks: TaskService) { super(); }
 * }
 * app.provide(TaskService).includeRouter(TaskRouter);
 *
 * @Injectable({ scope: 'request' })
 * class Tenant {
 *   constructor(@Header('X-Tenant') readonly id: string) {}
 * }
 * ```
 */
export function Injectable(options: InjectableOptions = {}): ClassDecorator {
  const scope = options.scope ?? 'singleton';
  return (target) => recordScope(target, scope);
}
