import type { Worker } from 'node:cluster';
import { COLLECT_TIMEOUT_MS, type MetricsAnswer, type MetricsCollect, type MetricsJson } from 'trellis/internal';
import { messages } from '../messages';
import { growing, sumSnapshots } from './metric-sums';

const stderr = (line: string) => void process.stderr.write(`trellis: ${line}\n`);

interface Collection {
  asker: Worker;
  askerId: number;
  waiting: Set<Worker>;
  exited: number[];
  snapshots: Map<Worker, MetricsJson>;
  timer: NodeJS.Timeout;
}

/**
 * The primary's side of the metrics sum of a {@link WorkerGroup} (see trellis/internal's cluster protocol): a
 * worker's scrape asks it; it asks every serving worker of the group, and answers the asker with the snapshots
 * that arrived within `timeoutMs`. A worker that does not answer in time, or exits meanwhile, is left out of that
 * scrape, and the primary says so (on stderr): the scrape never hangs on one worker.
 *
 * Counters and histograms never go down across scrapes (Prometheus would read a drop as a reset and count the
 * whole total again): a silent worker's count with its last answer's, and the workers that exited with the sum of
 * their last answers. What an exited worker counted after its last scrape is lost.
 *
 * @example
 * ```ts
 * const relay = new MetricsRelay(() => servingWorkers);
 * relay.query(worker, 7);        // on a worker's MetricsQuery
 * relay.snapshot(worker, 3, m);  // on a worker's MetricsSnapshot
 * relay.forget(worker);          // on its exit
 * ```
 */
export class MetricsRelay {
  readonly #workers: () => Worker[];
  readonly #timeoutMs: number;
  readonly #warn: (line: string) => void;
  readonly #collections = new Map<number, Collection>();
  /** Each live worker's counters and histograms as of its last answer. */
  readonly #last = new Map<Worker, MetricsJson>();
  /** The sum of the exited workers' last counters and histograms. */
  #retired: MetricsJson | undefined;
  #next = 0;

  /** `workers`: the group's serving workers, read at each scrape; `warn` gets the line naming the silent ones. */
  constructor(workers: () => Worker[], { timeoutMs = COLLECT_TIMEOUT_MS, warn = stderr }: { timeoutMs?: number; warn?: (line: string) => void } = {}) {
    this.#workers = workers;
    this.#timeoutMs = timeoutMs;
    this.#warn = warn;
  }

  /** `asker`'s scrape (its query `askerId`) wants the group's metrics. */
  query(asker: Worker, askerId: number): void {
    const id = this.#next++;
    const workers = this.#workers();
    const collection: Collection = {
      asker,
      askerId,
      waiting: new Set(workers),
      exited: [],
      snapshots: new Map(),
      timer: setTimeout(() => this.#finish(id), this.#timeoutMs),
    };
    this.#collections.set(id, collection);
    for (const worker of workers) worker.send({ trellis: 'metrics-collect', id } satisfies MetricsCollect, undefined, () => {});
    if (workers.length === 0) this.#finish(id);
  }

  /** A worker's answer to the collection `id`. */
  snapshot(worker: Worker, id: number, metrics: MetricsJson): void {
    const collection = this.#collections.get(id);
    if (!collection?.waiting.delete(worker)) return;
    collection.snapshots.set(worker, metrics);
    this.#last.set(worker, growing(metrics));
    if (collection.waiting.size === 0) this.#finish(id);
  }

  /** `worker` exited: no collection waits for it any more, and its last counts join the retired sum. */
  forget(worker: Worker): void {
    const last = this.#last.get(worker);
    this.#last.delete(worker);
    if (last) this.#retired = sumSnapshots(this.#retired ? [this.#retired, last] : [last]);
    for (const [id, collection] of this.#collections) {
      // An answer it gave to a collection still open is in the retired sum now: counted once.
      if (last) collection.snapshots.delete(worker);
      if (!collection.waiting.delete(worker)) continue;
      collection.exited.push(worker.process.pid ?? 0);
      if (collection.waiting.size === 0) this.#finish(id);
    }
  }

  #finish(id: number): void {
    const collection = this.#collections.get(id);
    if (!collection) return;
    this.#collections.delete(id);
    clearTimeout(collection.timer);
    const { asker, askerId, waiting, exited } = collection;
    const answered = [...collection.snapshots.values()];
    const silent = [...waiting].map((worker) => worker.process.pid ?? 0);
    const asked = answered.length + silent.length + exited.length;
    if (asked > answered.length) this.#warn(messages.run.metricsPartial(silent, exited, this.#timeoutMs, answered.length, asked));
    // The silent workers' counts as of their last answers, and the exited workers' sum.
    const kept = [...waiting].map((worker) => this.#last.get(worker)).filter((last) => last !== undefined);
    const snapshots = [...answered, ...kept, ...(this.#retired ? [this.#retired] : [])];
    if (asker.isConnected()) asker.send({ trellis: 'metrics-answer', id: askerId, snapshots, asked } satisfies MetricsAnswer, undefined, () => {});
  }
}
