export { metrics, MetricsPlugin } from './plugin';
export type { AppMetrics } from './app-metrics';
export { resolveMetricsOptions, DEFAULT_BUCKETS } from './options';
export type { MetricsOptions, ResolvedMetricsOptions } from './options';
export { UNMATCHED_ROUTE, OTHER_METHOD, CLIENT_CLOSED } from './request-tallies';
