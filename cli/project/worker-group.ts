import cluster, { type Worker } from 'node:cluster';
import { CLUSTER_METRICS_VARIABLE, type ListeningMessage, type MetricsQuery, type MetricsSnapshot, type StopMessage } from 'trellis/internal';
import { messages } from '../messages';
import { MetricsRelay } from './metrics-relay';
import { RestartBackoff } from './restart-backoff';

/** What a worker tells the primary when it cannot serve, in the one line the user reads (a startup error). */
export interface FailedMessage {
  trellis: 'failed';
  message: string;
}
type WorkerMessage = ListeningMessage | FailedMessage | MetricsQuery | MetricsSnapshot;

/** What a {@link WorkerGroup} tells its owner (the cluster primary of `--workers`, or of `--reload`). */
export interface GroupEvents {
  /** The first worker listens: it has printed the banner. */
  serving(): void;
  /** Every worker listens. */
  listening(): void;
  /**
   * A worker stopped before it listened (the first start, or a replacement): `message` is its own line when
   * it sent one. The group stops its other workers.
   */
  failed(message: string | undefined): void;
  /** A worker that served reported an error as it ended (requests cut off at the end of the grace period). */
  problem(message: string): void;
  /** After {@link WorkerGroup.stop}: every worker has exited. */
  stopped(): void;
}

/**
 * `count` cluster workers serving one version of the project on the port in `env.TRELLIS_CLUSTER_PORT`.
 * The first starts alone and prints the banner; the others start once it listens. A worker that dies after
 * it served is replaced, after a delay that doubles with each crash in a row ({@link RestartBackoff}); one
 * that dies before it served fails the group. `stop()` stops every worker gracefully (one still loading is
 * killed: it has nothing to finish). A scrape of `/metrics` reaching any worker sums every serving worker of the
 * group ({@link MetricsRelay}).
 *
 * @example
 * ```ts
 * const group = new WorkerGroup(2, { TRELLIS_CLUSTER_PORT: '8000' }, events);
 * group.start();
 * group.stop(); // events.stopped() once every worker has exited
 * ```
 */
export class WorkerGroup {
  readonly #count: number;
  readonly #env: Record<string, string>;
  readonly #events: GroupEvents;
  /** Every live worker, and whether it serves yet (one still loading cannot take a stop message yet). */
  readonly #live = new Map<Worker, boolean>();
  readonly #backoff = new RestartBackoff();
  readonly #restarts = new Set<NodeJS.Timeout>(); // replacements waiting for their delay
  readonly #metrics = new MetricsRelay(() => [...this.#live].filter(([, serving]) => serving).map(([worker]) => worker));
  #listening = false;
  #failed = false;
  #stopping = false;

  constructor(count: number, env: Record<string, string>, events: GroupEvents) {
    this.#count = count;
    this.#env = env;
    this.#events = events;
  }

  start(): void {
    this.#fork(true);
  }

  /** Stops every worker; `stopped()` follows once all have exited. */
  stop(): void {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const timer of this.#restarts) clearTimeout(timer);
    this.#restarts.clear();
    if (this.#live.size === 0) return void queueMicrotask(() => this.#events.stopped());
    for (const [worker, serving] of this.#live) this.#stopWorker(worker, serving);
  }

  #stopWorker(worker: Worker, serving: boolean): void {
    if (serving) worker.send({ trellis: 'stop' } satisfies StopMessage);
    else worker.process.kill('SIGTERM');
  }

  #fork(first = false): void {
    const env = { ...this.#env, [CLUSTER_METRICS_VARIABLE]: '1', ...(first && { TRELLIS_CLUSTER_FIRST: '1' }) };
    const worker = cluster.fork(env);
    let serving = false;
    let since = 0;
    this.#live.set(worker, false);
    // A message to a worker that has just died (ours, or node:cluster's own) fails with EPIPE on the Worker;
    // unhandled, that error would end the primary. The worker's 'exit' follows and is handled below.
    worker.on('error', () => {});
    worker.on('message', (message: WorkerMessage) => {
      if (message?.trellis === 'listening') {
        serving = true;
        since = Date.now();
        this.#live.set(worker, true);
        if (this.#stopping) return this.#stopWorker(worker, true);
        if (first) this.#events.serving();
        if (!this.#listening && first) for (let i = 1; i < this.#count; i++) this.#fork();
        if (!this.#listening && [...this.#live.values()].filter(Boolean).length === this.#count) {
          this.#listening = true;
          this.#events.listening();
        }
      } else if (message?.trellis === 'failed') {
        if (serving) this.#events.problem(message.message);
        else this.#fail(message.message);
      } else if (message?.trellis === 'metrics-query') this.#metrics.query(worker, message.id);
      else if (message?.trellis === 'metrics-snapshot') this.#metrics.snapshot(worker, message.id, message.metrics);
    });
    worker.on('exit', (code) => {
      this.#live.delete(worker);
      this.#metrics.forget(worker);
      if (this.#stopping) {
        if (this.#live.size === 0) this.#events.stopped();
      } else if (!serving) this.#fail(undefined);
      else {
        const { delayMs, streak } = this.#backoff.next(Date.now() - since);
        process.stderr.write(`trellis: ${messages.run.workerExited(worker.process.pid ?? 0, code, delayMs, streak)}\n`);
        const timer = setTimeout(() => {
          this.#restarts.delete(timer);
          this.#fork();
        }, delayMs);
        this.#restarts.add(timer);
      }
    });
  }

  // The first failure is the one reported.
  #fail(message: string | undefined): void {
    if (this.#failed || this.#stopping) return;
    this.#failed = true;
    this.#events.failed(message);
    this.stop();
  }
}
