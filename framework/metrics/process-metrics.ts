import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's defaults left out: the active handles, requests and resources (one entry per socket, the first
 * two read through Node's deprecated `process._getActiveHandles()`; the open connections are
 * `process_open_fds` already) and the heap per V8 space (24 series of detail; the heap totals stay).
 */
export const LEFT_OUT: ReadonlySet<string> = new Set([
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'nodejs_heap_space_size_total_bytes',
  'nodejs_heap_space_size_used_bytes',
  'nodejs_heap_space_size_available_bytes',
]);

// Made once per process: they describe the process (one heap, one event loop), whatever the number of apps,
// and each set watches the event loop and the GC for as long as the process lives.
let shared: Registry | undefined;

/**
 * Adds prom-client's default process and Node.js metrics, but {@link LEFT_OUT}, to `registry`: CPU, memory,
 * open file descriptors, start time, event-loop lag, heap, GC pauses, Node's version. The metric objects are
 * the process's, shared by every app's registry; reading one (a scrape) also resets the event-loop lag
 * statistics, which so cover the time since the last scrape of any app.
 */
export function registerProcessMetrics(registry: Registry): void {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  // In prom-client's order: the lag gauge's collect sets the other lag gauges, which come after it.
  for (const { name } of shared.getMetricsAsArray()) {
    const metric = shared.getSingleMetric(name);
    if (metric && !LEFT_OUT.has(name)) registry.registerMetric(metric);
  }
}
