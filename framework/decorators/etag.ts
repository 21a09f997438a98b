import { routeMark } from './route-mark';

/** The `@ETag` marks, read by the etag plug-in (internal). */
export const etagMark = routeMark<boolean>('ETag');

/**
 * A weak ETag on the JSON answers of a GET route (or of every GET route of a router), and `304 Not Modified`
 * when the request's `If-None-Match` names it; `@ETag(false)` leaves a route out when config.yaml has
 * `etag: true`. The handler's mark wins over its router's. Needs the etag plug-in registered (config.yaml
 * `etag: true` for every GET route or `etag: false` for the marked ones alone, or `app.register(etag())`).
 *
 * @example
 * ```ts
 * @ETag()
 * class TaskRouter extends router('/tasks') {
 *   @Get('/{task_id}') one(@Path('task_id') id: number) { return { id, title: 'write docs' }; }
 *   @ETag(false) @Get('/random') random() { return { value: Math.random() }; }
 * }
 * ```
 */
export function ETag(enabled = true): ClassDecorator & MethodDecorator {
  return etagMark.decorator(enabled);
}
