import type { MetricsJson } from 'trellis/internal';

type Metric = Record<string, unknown> & { name?: unknown; type?: unknown; values?: unknown };
type Sample = { value?: unknown; labels?: Record<string, unknown>; metricName?: unknown };

/**
 * The counters and histograms of `metrics` (prom-client's `getMetricsAsJSON()`): the values that only grow, and so
 * stay true for a worker once it is gone. Gauges and summaries are left out.
 *
 * @example
 * ```ts
 * growing([{ name: 'http_requests_total', type: 'counter', values: [...] }, { name: 'heap', type: 'gauge', values: [...] }]);
 * // the counter alone
 * ```
 */
export function growing(metrics: MetricsJson): MetricsJson {
  return metrics.filter((metric) => metric.type === 'counter' || metric.type === 'histogram');
}

/**
 * One snapshot holding the sums of `snapshots`' values, metric by metric and label set by label set (a histogram's
 * buckets, `_sum` and `_count` each by their own name): what the workers that exited counted, kept so that the
 * group's totals never go down when one is replaced.
 *
 * @example
 * ```ts
 * sumSnapshots([a, b]); // http_requests_total{route="/x"} = a's + b's
 * ```
 */
export function sumSnapshots(snapshots: readonly MetricsJson[]): MetricsJson {
  const metrics = new Map<unknown, { metric: Metric; values: Map<string, Sample> }>();
  for (const snapshot of snapshots) {
    for (const metric of snapshot as readonly Metric[]) {
      let entry = metrics.get(metric.name);
      if (!entry) metrics.set(metric.name, (entry = { metric, values: new Map() }));
      for (const sample of Array.isArray(metric.values) ? (metric.values as Sample[]) : []) {
        const key = `${String(sample.metricName ?? '')} ${JSON.stringify(Object.entries(sample.labels ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
        const value = typeof sample.value === 'number' ? sample.value : 0;
        const seen = entry.values.get(key);
        entry.values.set(key, seen ? { ...seen, value: (seen.value as number) + value } : { ...sample, value });
      }
    }
  }
  return [...metrics.values()].map(({ metric, values }) => ({ ...metric, values: [...values.values()] }));
}
