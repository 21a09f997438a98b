import type { AppMetrics } from './app-metrics';
import { resolveMetricsOptions, type MetricsOptions } from './options';

export type { AppMetrics } from './app-metrics';
export { resolveMetricsOptions, DEFAULT_BUCKETS } from './options';
export type { MetricsOptions, ResolvedMetricsOptions } from './options';
export { UNMATCHED_ROUTE, OTHER_METHOD, CLIENT_CLOSED } from './request-tallies';

/**
 * The metrics of an app with `AppOptions.metrics`, or `undefined` when they are off. prom-client (about 70 ms
 * to load) is loaded here, only by an app that turns metrics on.
 */
export function createMetrics(option: MetricsOptions | boolean | undefined): AppMetrics | undefined {
  const resolved = resolveMetricsOptions(option);
  if (!resolved) return undefined;
  const { AppMetrics } = require('./app-metrics') as typeof import('./app-metrics');
  return new AppMetrics(resolved);
}
