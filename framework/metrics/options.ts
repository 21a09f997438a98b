import { TrellisError } from '../framework-error';

/**
 * `AppOptions.metrics`: Prometheus metrics at `GET /metrics` (off by default; `true` turns them on with these
 * defaults).
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ metrics: { path: '/internal/metrics', buckets: [0.01, 0.1, 1] } });
 * ```
 */
export interface MetricsOptions {
  /** Where the metrics are served: `/metrics` by default. */
  path?: string;
  /**
   * Upper bounds, in seconds, of `http_request_duration_seconds`' buckets (increasing):
   * `[0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]` by default.
   */
  buckets?: number[];
  /**
   * Whether the process and Node.js metrics (CPU, memory, heap, event-loop lag, GC, file descriptors) are
   * exported too: `true` by default. Turn them off to register prom-client's `collectDefaultMetrics` yourself.
   */
  defaultMetrics?: boolean;
}

/** {@link MetricsOptions} with defaults applied and checked. */
export interface ResolvedMetricsOptions {
  path: string;
  buckets: readonly number[];
  defaultMetrics: boolean;
}

// prom-client's default buckets with 1 ms in front: an API's requests mostly take well under 5 ms.
export const DEFAULT_BUCKETS: readonly number[] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const SEGMENTS = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * The metrics settings of `AppOptions.metrics`, or `undefined` when they are off (`undefined`, `false`).
 * Throws `TRELLIS_ERR_METRICS_PATH` for a path that is not plain segments (no root, `{name}`, `:`, `*`) and
 * `TRELLIS_ERR_METRICS_BUCKETS` for buckets that are not increasing positive numbers.
 *
 * @example
 * ```ts
 * resolveMetricsOptions(true); // { path: '/metrics', buckets: DEFAULT_BUCKETS, defaultMetrics: true }
 * ```
 */
export function resolveMetricsOptions(option: MetricsOptions | boolean | undefined): ResolvedMetricsOptions | undefined {
  if (option === undefined || option === false) return undefined;
  const { path = '/metrics', buckets = DEFAULT_BUCKETS, defaultMetrics = true } = option === true ? {} : option;
  const route = `/${path}`.replace(/\/{2,}/g, '/').replace(/\/$/, '');
  if (typeof path !== 'string' || !SEGMENTS.test(route)) throw new TrellisError('TRELLIS_ERR_METRICS_PATH', String(path));
  if (!increasing(buckets)) throw new TrellisError('TRELLIS_ERR_METRICS_BUCKETS', JSON.stringify(buckets) ?? String(buckets));
  return { path: route, buckets: Object.freeze([...buckets]), defaultMetrics: defaultMetrics !== false };
}

function increasing(buckets: unknown): buckets is number[] {
  return (
    Array.isArray(buckets) &&
    buckets.length > 0 &&
    buckets.every((b, i) => typeof b === 'number' && Number.isFinite(b) && b > 0 && (i === 0 || b > buckets[i - 1]))
  );
}
