/**
 * How the workers of a trellis cluster (`trellis run --workers N`, `--reload`) and their primary sum the metrics:
 * a scrape reaching worker W sends a {@link MetricsQuery} to the primary, which sends a {@link MetricsCollect} to
 * every serving worker of W's group (W included), gathers their {@link MetricsSnapshot}s for at most
 * {@link COLLECT_TIMEOUT_MS}, and answers W with a {@link MetricsAnswer}: what arrived. W merges the snapshots with
 * prom-client's `AggregatorRegistry.aggregate` and serves the text. Only this leaf is shared with the CLI
 * (through `trellis/internal`); the primary never loads prom-client.
 */

/** Set to `1` by a trellis cluster primary in its workers' environment: their `/metrics` sums the whole group. */
export const CLUSTER_METRICS_VARIABLE = 'TRELLIS_CLUSTER_METRICS';

/** How long the primary waits for the workers' snapshots before it answers with those that arrived. */
export const COLLECT_TIMEOUT_MS = 1000;

/** One registry's metrics as `registry.getMetricsAsJSON()` returns them (plain data, sent over IPC). */
export type MetricsJson = ReadonlyArray<Record<string, unknown>>;

/** Worker to primary: a scrape wants the whole group's metrics. */
export interface MetricsQuery {
  trellis: 'metrics-query';
  id: number;
}

/** Primary to each serving worker: send your metrics. */
export interface MetricsCollect {
  trellis: 'metrics-collect';
  id: number;
}

/** Worker to primary: the answer to a {@link MetricsCollect}. */
export interface MetricsSnapshot {
  trellis: 'metrics-snapshot';
  id: number;
  metrics: MetricsJson;
}

/** Primary to the asking worker: the snapshots that arrived, and how many workers were asked. */
export interface MetricsAnswer {
  trellis: 'metrics-answer';
  id: number;
  snapshots: MetricsJson[];
  asked: number;
}
