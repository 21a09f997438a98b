import { dirname, sep } from 'node:path';
import type { RouteInfo } from '../../routing/route-info';
import type { TypeTable } from './table';

// The framework's own routes (docs pages, health probes, static files) have nothing to read; its tests do.
const FRAMEWORK = `${dirname(dirname(__dirname))}${sep}`;
const FRAMEWORK_TESTS = `${FRAMEWORK}tests${sep}`;
const own = (file: string) => file.startsWith(FRAMEWORK) && !file.startsWith(FRAMEWORK_TESTS);

/**
 * The types of an app's routes, read from the files their decorators ran in (the framework's own excepted):
 * see `readSourceTypes`, loaded only when an app reads its sources. Undefined when there is nothing to read.
 *
 * @example
 * ```ts
 * const sourceTypes = readRouteTypes(app.routes);
 * ```
 */
export function readRouteTypes(routes: readonly RouteInfo[]): TypeTable | undefined {
  const files = [...new Set(routes.map((route) => route.source?.file).filter((file): file is string => !!file && !own(file)))];
  if (!files.length) return undefined;
  const { readSourceTypes } = require('./read') as typeof import('./read');
  return readSourceTypes(files);
}
