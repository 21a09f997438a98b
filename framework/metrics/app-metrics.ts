import { Registry } from 'prom-client';
import type { Class } from '../core/types';
import type { Controller } from '../router';
import type { ResolvedMetricsOptions } from './options';
import { registerProcessMetrics } from './process-metrics';
import { RequestTallies } from './request-tallies';
import { metricsRouter } from './routes';
import { TallyMetric } from './tally-metric';

/**
 * One app's metrics: its own prom-client registry (never the global one: apps in one process share no
 * counter), the request tallies the app's listener feeds, and the router that serves them.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly tallies: RequestTallies;
  readonly router: Class<Controller>;

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
    this.router = metricsRouter(options.path, this.registry);
  }
}
