import { routeMark } from '../decorators/route-mark';
import type { RouteInfo } from '../routing/route-info';
import { checkedVersions, routerVersionsOf } from './router-version';

const versions = routeMark<readonly string[]>('Version');

/**
 * The API versions of a route, as a list of checked names: its handler's `@Version`, else its class's, else what
 * `router('/tasks', { version: '1' })` gave its router; undefined when version-neutral.
 */
export function versionsOf(route: Pick<RouteInfo, 'router' | 'handlerName'>): readonly string[] | undefined {
  return versions.of(route) ?? routerVersionsOf(route.router);
}

/**
 * Orders versions as people read them: `'2' < '10'`, `'1.2' < '1.10'`, `'2024-01-01' < '2024-06-01'`.
 *
 * @example
 * ```ts
 * ['10', '2', '1'].sort(compareVersions); // ['1', '2', '10']
 * ```
 */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/**
 * Makes a handler (or a whole router class) a route of the given API version(s), overriding its router's
 * `version`: `@Version('2')` beside the v1 handlers of `router('/tasks', { version: '1' })` serves that one
 * handler as version 2 only. Several names make it a route of each.
 *
 * @example
 * ```ts
 * class TaskRouter extends router('/tasks', { version: '1' }) {
 *   @Get() list() { return []; }                                  // GET /v1/tasks
 *   @Get('/{id}') @Version('1', '2') one() { return {}; }        // GET /v1/tasks/{id} and /v2/tasks/{id}
 * }
 * ```
 */
export function Version(...names: string[]): ClassDecorator & MethodDecorator {
  return versions.decorator(checkedVersions(names, '@Version'));
}
