import type { Readiness } from './readiness';

/**
 * What `/readyz` answers from: one run of the health checks at a time, its result reused for `intervalMs`
 * after it finished (Kubernetes probes every few seconds; a load test or a client looping on `/readyz` must
 * not turn into a database ping per request). Requests that come while a run is in flight wait for that run.
 * With `intervalMs` 0 every request after the last run finished starts a new one.
 */
export class ReadinessCache {
  #running: Promise<Readiness> | undefined;
  #last: { readiness: Readiness; at: number } | undefined;

  constructor(
    private readonly run: () => Promise<Readiness>,
    private readonly intervalMs: number,
  ) {}

  get(): Promise<Readiness> {
    if (this.#running) return this.#running;
    const last = this.#last;
    if (last && performance.now() - last.at < this.intervalMs) return Promise.resolve(last.readiness);
    const running = this.run().then((readiness) => {
      this.#last = { readiness, at: performance.now() };
      return readiness;
    });
    this.#running = running.finally(() => (this.#running = undefined));
    return this.#running;
  }
}
