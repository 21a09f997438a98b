import type { Registry } from 'prom-client';
import type { Plugin, PluginHost } from '../plugin/plugin';
import type { AppMetrics } from './app-metrics';
import { resolveMetricsOptions, type MetricsOptions } from './options';

/**
 * Prometheus metrics as a plug-in: `GET /metrics` (out of the OpenAPI document) with requests and their durations by
 * route pattern, method and status (every request counted, refused and unmatched ones included), and the process's
 * CPU, memory, heap and event-loop lag. `registry` is the app's own prom-client registry, given to services that
 * take a `Registry`. In a worker of `trellis run --workers N` the page sums every worker's registry (each metric by
 * its `aggregator`: counters and histograms summed), asked through the cluster's primary. `AppOptions.metrics` registers it for you. prom-client loads only when metrics are on.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { metrics } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(metrics({ path: '/internal/metrics', buckets: [0.01, 0.1, 1] }));
 * ```
 */
export class MetricsPlugin implements Plugin {
  readonly name = 'metrics';
  readonly #metrics: AppMetrics;

  constructor(options: MetricsOptions = {}) {
    const resolved = resolveMetricsOptions(options)!;
    const { AppMetrics } = require('./app-metrics') as typeof import('./app-metrics');
    this.#metrics = new AppMetrics(resolved);
  }

  /** The registry the metrics are read from: register your own metrics on it. */
  get registry(): Registry {
    return this.#metrics.registry;
  }

  register(host: PluginHost): void {
    const { registry, router, tallies, cluster } = this.#metrics;
    host.provide(registry);
    host.route(router);
    host.observe(tallies.track.bind(tallies));
    if (cluster) {
      let stop = () => {};
      host.onStartup(() => void (stop = cluster.listen()));
      host.onShutdown(() => stop());
    }
  }
}

/**
 * The metrics plug-in (see {@link MetricsPlugin}).
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { metrics } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(metrics());
 * ```
 */
export function metrics(options: MetricsOptions = {}): MetricsPlugin {
  return new MetricsPlugin(options);
}
