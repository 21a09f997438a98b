import assert from 'node:assert/strict';
import type { Worker } from 'node:cluster';
import { describe, it } from 'node:test';
import type { MetricsAnswer, MetricsCollect, MetricsJson } from 'trellis/internal';
import { MetricsRelay } from '../project/metrics-relay';

/** A cluster worker as the relay sees it: a pid, and the messages sent to it (`answered` once one is a MetricsAnswer). */
class FakeWorker {
  readonly sent: Array<MetricsCollect | MetricsAnswer> = [];
  readonly process: { pid: number };
  readonly answered: Promise<MetricsAnswer>;
  #answer!: (answer: MetricsAnswer) => void;

  constructor(pid: number) {
    this.process = { pid };
    this.answered = new Promise((resolve) => (this.#answer = resolve));
  }

  send(message: MetricsCollect | MetricsAnswer): boolean {
    this.sent.push(message);
    if (message.trellis === 'metrics-answer') this.#answer(message);
    return true;
  }

  isConnected(): boolean {
    return true;
  }

  /** The id of the last collection the relay asked this worker for. */
  get collection(): number {
    const collect = this.sent.filter((message) => message.trellis === 'metrics-collect').at(-1);
    assert.ok(collect, `worker ${this.process.pid} was asked`);
    return collect.id;
  }
}

const asWorker = (fake: FakeWorker) => fake as unknown as Worker;
const snapshot = (pid: number): MetricsJson => [{ name: 'http_requests_total', pid }];

function relayOf(fakes: FakeWorker[], timeoutMs = 60_000) {
  const warnings: string[] = [];
  const relay = new MetricsRelay(() => fakes.map(asWorker), { timeoutMs, warn: (line) => warnings.push(line) });
  return { relay, warnings };
}

describe('MetricsRelay (the primary of trellis run --workers)', () => {
  it("asks every serving worker, the asker included, and answers the asker's query id with every snapshot", async () => {
    const workers = [new FakeWorker(101), new FakeWorker(102), new FakeWorker(103)];
    const { relay, warnings } = relayOf(workers);
    relay.query(asWorker(workers[1]), 7);
    for (const worker of workers) relay.snapshot(asWorker(worker), worker.collection, snapshot(worker.process.pid));

    const answer = await workers[1].answered;
    assert.deepEqual(answer, { trellis: 'metrics-answer', id: 7, snapshots: [snapshot(101), snapshot(102), snapshot(103)], asked: 3 });
    assert.deepEqual(warnings, []);
    assert.equal(workers[0].sent.length, 1, 'only the asker gets the answer');
  });

  it('answers with the snapshots that arrived when a worker stays silent past the timeout, naming it', async () => {
    const workers = [new FakeWorker(201), new FakeWorker(202)];
    const { relay, warnings } = relayOf(workers, 50);
    relay.query(asWorker(workers[0]), 1);
    relay.snapshot(asWorker(workers[0]), workers[0].collection, snapshot(201));

    assert.deepEqual(await workers[0].answered, { trellis: 'metrics-answer', id: 1, snapshots: [snapshot(201)], asked: 2 });
    assert.deepEqual(warnings, ['/metrics: worker 202 did not answer within 50 ms; this scrape sums 1 of 2 workers']);
    // Its late answer changes nothing.
    relay.snapshot(asWorker(workers[1]), workers[1].collection, snapshot(202));
    assert.equal(workers[0].sent.filter((message) => message.trellis === 'metrics-answer').length, 1);
  });

  it('stops waiting for a worker that exits, and ignores snapshots of collections it never asked for', async () => {
    const workers = [new FakeWorker(301), new FakeWorker(302)];
    const { relay, warnings } = relayOf(workers);
    relay.query(asWorker(workers[1]), 4);
    relay.snapshot(asWorker(workers[1]), workers[1].collection + 1, snapshot(999));
    relay.snapshot(asWorker(workers[1]), workers[1].collection, snapshot(302));
    relay.forget(asWorker(workers[0]));

    assert.deepEqual(await workers[1].answered, { trellis: 'metrics-answer', id: 4, snapshots: [snapshot(302)], asked: 2 });
    assert.deepEqual(warnings, ['/metrics: worker 301 exited before answering; this scrape sums 1 of 2 workers']);
  });
});
