import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import {
  CLUSTER_METRICS_VARIABLE,
  COLLECT_TIMEOUT_MS,
  type MetricsAnswer,
  type MetricsCollect,
  type MetricsJson,
  type MetricsQuery,
  type MetricsSnapshot,
} from './cluster-protocol';

// Past the primary's own wait: it answers by then unless it is gone, and then this worker's metrics are all there is.
const ANSWER_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 2000;

type Message = MetricsCollect | MetricsAnswer | { trellis?: unknown };

/** Whether this process is a worker of a trellis cluster whose primary sums the metrics ({@link ClusterMetrics}). */
export function inTrellisCluster(): boolean {
  return cluster.isWorker && process.env[CLUSTER_METRICS_VARIABLE] === '1' && typeof process.send === 'function';
}

/**
 * A cluster worker's side of the metrics sum (see cluster-protocol.ts): it answers the primary's collections with
 * `registry`'s metrics, and reads the whole group's through the primary. Counters and histograms are summed; each
 * metric's `aggregator` decides the rest (prom-client's: gauges `sum` unless they say otherwise).
 *
 * @example
 * ```ts
 * const metrics = new ClusterMetrics(registry);
 * const stop = metrics.listen(); // at startup; stop() at shutdown
 * const text = await metrics.text(); // every worker's, summed
 * ```
 */
export class ClusterMetrics {
  readonly #registry: Registry;
  readonly #waiting = new Map<number, (answer: MetricsAnswer | undefined) => void>();
  #next = 0;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  /** Starts answering the primary; the function returned stops it (a listener on `process` keeps the IPC channel open). */
  listen(): () => void {
    const onMessage = (message: Message) => {
      if (message?.trellis === 'metrics-collect') void this.#answer((message as MetricsCollect).id);
      else if (message?.trellis === 'metrics-answer') this.#waiting.get((message as MetricsAnswer).id)?.(message as MetricsAnswer);
    };
    process.on('message', onMessage);
    return () => {
      process.off('message', onMessage);
      for (const settle of this.#waiting.values()) settle(undefined);
    };
  }

  /** The group's metrics in Prometheus' text format: what the workers sent, or this worker's own if the primary is silent. */
  async text(): Promise<string> {
    const answer = await this.#ask();
    const snapshots = answer?.snapshots ?? [await this.#registry.getMetricsAsJSON()];
    const merged = AggregatorRegistry.aggregate(snapshots as Parameters<typeof AggregatorRegistry.aggregate>[0]);
    return merged.metrics();
  }

  #ask(): Promise<MetricsAnswer | undefined> {
    const id = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), ANSWER_TIMEOUT_MS);
      const settle = (answer: MetricsAnswer | undefined) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(answer);
      };
      this.#waiting.set(id, settle);
      process.send!({ trellis: 'metrics-query', id } satisfies MetricsQuery, undefined, undefined, (error) => {
        if (error) settle(undefined);
      });
    });
  }

  async #answer(id: number): Promise<void> {
    let metrics: MetricsJson;
    try {
      metrics = (await this.#registry.getMetricsAsJSON()) as unknown as MetricsJson;
    } catch {
      return; // a metric's own collect() failed: the primary counts this worker as not answering, and says so
    }
    // The channel may close as this worker stops: the primary then counts it as not answering.
    if (process.connected) process.send!({ trellis: 'metrics-snapshot', id, metrics } satisfies MetricsSnapshot, undefined, undefined, () => {});
  }
}
