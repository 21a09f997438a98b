import { Registry } from 'prom-client';
import type { Class } from '../core/types';
import type { Controller } from '../router';
import { ClusterMetrics, inTrellisCluster } from './cluster-metrics';
import type { ResolvedMetricsOptions } from './options';
import { registerProcessMetrics } from './process-metrics';
import { RequestTallies } from './request-tallies';
import { metricsRouter } from './routes';
import { TallyMetric } from './tally-metric';

/**
 * One app's metrics: its own prom-client registry (never the global one: apps in one process share no
 * counter), the request tallies the app's listener feeds, and the router that serves them: the registry's
 * metrics, or in a worker of a trellis cluster every worker's, summed through the primary ({@link ClusterMetrics}).
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly tallies: RequestTallies;
  readonly router: Class<Controller>;
  /** Set in a trellis cluster's worker: answers the primary while the app runs. */
  readonly cluster: ClusterMetrics | undefined;

  constructor(options: ResolvedMetricsOptions) {
    this.tallies = new RequestTallies(options.buckets);
    const labels = 'by route pattern, method and status code';
    new TallyMetric('http_requests_total', `Requests answered, ${labels}.`, 'counter', this.tallies).registerIn(this.registry);
    new TallyMetric(
      'http_request_duration_seconds',
      `Seconds from a request's arrival until its response was written, ${labels}.`,
      'histogram',
      this.tallies,
    ).registerIn(this.registry);
    if (options.defaultMetrics) registerProcessMetrics(this.registry);
    this.cluster = inTrellisCluster() ? new ClusterMetrics(this.registry) : undefined;
    const cluster = this.cluster;
    const read = cluster ? () => cluster.text() : () => this.registry.metrics();
    this.router = metricsRouter(options.path, this.registry.contentType, read);
  }
}
