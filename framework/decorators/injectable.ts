/**
 * Marks a class whose constructor parameters are injected by type. TypeScript records parameter types
 * (`design:paramtypes`) only for decorated classes, so a router or service that takes services needs it.
 * A service takes part in the app's life by defining `onStartup()`, `onShutdown()` or `healthCheck()`: the app
 * finds them by name.
 *
 * @example
 * ```ts
 * @Injectable()
 * class TaskRouter extends router('/tasks') {
 *   constructor(private readonly tasks: TaskService) { super(); }
 * }
 * app.provide(TaskService).includeRouter(TaskRouter);
 * ```
 */
export function Injectable(): ClassDecorator {
  return () => {};
}
