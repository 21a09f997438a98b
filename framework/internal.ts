/**
 * The framework's plumbing for trellis's own runtime and command-line tool, re-exported by `trellis/internal`
 * (runtime/internal.ts): the on-disk cache, the deferred logger, the config errors the runtime reports, the
 * listener and server types the runtime serves with. Not part of the public face: no semver promise, it changes
 * with trellis-cli (docs/reference/entry-points.md).
 *
 * @example
 * ```ts
 * import { cacheDir, writeCacheEntry } from 'trellis/internal';
 *
 * const dir = cacheDir(process.cwd(), undefined, 'config');
 * if (dir) writeCacheEntry(`${dir}/snapshot.json`, '{}');
 * ```
 */
import type { Class } from './core/types';
import type { Controller } from './router';
import type { TypeTable } from './source/types/table';

export { cacheDir, writeCacheEntry } from './source/types/cache';
export { createLogger, deferredLogger } from './logger';
export type { LoggerOptions, LogDestination } from './logger';
export type { Logger, LogFn } from './core/logger';
export { ConfigValueError } from './config';
export { ConfigSectionError } from './config-section';
export { usesRateLimit } from './decorators/rate-limit';
export type { RequestListener } from './core/listener';
export type { Server, Stoppable, UpgradeListener } from './server';
export { CLUSTER_METRICS_VARIABLE, COLLECT_TIMEOUT_MS } from './metrics/cluster-protocol';
export type { MetricsAnswer, MetricsCollect, MetricsJson, MetricsQuery, MetricsSnapshot } from './metrics/cluster-protocol';

/**
 * Compiles the response serializers of every route of `routers` into the project's cache (standalone
 * fast-json-stringify code), as the app does when it starts, so that a build's first start finds them; `types`
 * keyed by the files the routes are declared in. Nothing is built. Returns the number of routes with a shape.
 *
 * @example
 * ```ts
 * precompileResponseShapes([TaskRouter], readSourceTypes(['/home/me/demo/dist/routers/tasks.js'])); // 3
 * ```
 */
export function precompileResponseShapes(routers: ReadonlyArray<Class<Controller>>, types: TypeTable | undefined): number {
  // Loaded on use: the serializer compiler is only needed by `trellis build`.
  const { ResponseShaper } = require('./pipeline/response-shape') as typeof import('./pipeline/response-shape');
  const { collectRoutes } = require('./routing/collect') as typeof import('./routing/collect');
  const shaper = new ResponseShaper(types);
  return routers.flatMap((cls) => collectRoutes(cls)).filter((route) => shaper.shapesOf(route)).length;
}
