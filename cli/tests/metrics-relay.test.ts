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

  /** The answer to this worker's query `id`, once the relay sent it (within 10 s). */
  async answers(id: number): Promise<MetricsAnswer> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
      const answer = this.sent.find((message): message is MetricsAnswer => message.trellis === 'metrics-answer' && message.id === id);
      if (answer) return answer;
    }
    throw new Error(`worker ${this.process.pid} got no answer to query ${id}`);
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

  it('keeps the counters of a worker that exited: the sum never goes down when it is replaced', async () => {
    const workers = [new FakeWorker(401), new FakeWorker(402)];
    const { relay } = relayOf(workers);
    const scrape = async (asker: FakeWorker, id: number, counts: Map<FakeWorker, number>) => {
      relay.query(asWorker(asker), id);
      for (const [worker, count] of counts) relay.snapshot(asWorker(worker), worker.collection, counted(count, worker.process.pid));
      const answer = await asker.answers(id);
      return { requests: total(answer, 'http_requests_total'), buckets: total(answer, 'http_request_duration_seconds', 'http_request_duration_seconds_bucket'), heap: total(answer, 'heap_bytes') };
    };
    assert.deepEqual(await scrape(workers[0], 1, new Map([[workers[0], 5], [workers[1], 7]])), { requests: 12, buckets: 12, heap: 2 });

    // 401 exits and 403 replaces it: 401's counters and histograms stay, its gauge goes.
    relay.forget(asWorker(workers[0]));
    workers.splice(0, 1, new FakeWorker(403));
    assert.deepEqual(await scrape(workers[1], 2, new Map([[workers[0], 1], [workers[1], 8]])), { requests: 14, buckets: 14, heap: 2 });
    // 402 exits too: both retired sums add up.
    relay.forget(asWorker(workers[1]));
    workers.splice(1, 1);
    assert.deepEqual(await scrape(workers[0], 3, new Map([[workers[0], 2]])), { requests: 15, buckets: 15, heap: 1 });
  });

  it('counts a worker that answered, then exited before the scrape was answered, once', async () => {
    const workers = [new FakeWorker(501), new FakeWorker(502)];
    const { relay } = relayOf(workers);
    relay.query(asWorker(workers[1]), 1);
    relay.snapshot(asWorker(workers[0]), workers[0].collection, counted(5, 501));
    relay.forget(asWorker(workers[0]));
    relay.snapshot(asWorker(workers[1]), workers[1].collection, counted(7, 502));
    assert.equal(total(await workers[1].answers(1), 'http_requests_total'), 12);
  });

  it("counts a silent worker's counters as of its last answer, never its gauges", async () => {
    const workers = [new FakeWorker(601), new FakeWorker(602)];
    const { relay, warnings } = relayOf(workers, 50);
    relay.query(asWorker(workers[0]), 1);
    for (const [worker, count] of [[workers[0], 3], [workers[1], 4]] as const) relay.snapshot(asWorker(worker), worker.collection, counted(count, worker.process.pid));
    await workers[0].answers(1);
    relay.query(asWorker(workers[0]), 2);
    relay.snapshot(asWorker(workers[0]), workers[0].collection, counted(6, 601));
    const answer = await workers[0].answers(2);
    assert.equal(total(answer, 'http_requests_total'), 10);
    assert.equal(total(answer, 'heap_bytes'), 1);
    assert.deepEqual(warnings, ['/metrics: worker 602 did not answer within 50 ms; this scrape sums 1 of 2 workers']);
  });
});

/** A worker's metrics as prom-client's getMetricsAsJSON() gives them: `requests` counted, and a gauge of 1. */
function counted(requests: number, pid: number): MetricsJson {
  const labels = { method: 'GET', route: '/x' };
  return [
    { name: 'http_requests_total', help: 'h', type: 'counter', aggregator: 'sum', values: [{ value: requests, labels }] },
    {
      name: 'http_request_duration_seconds', help: 'h', type: 'histogram', aggregator: 'sum',
      values: [
        { value: requests, labels: { ...labels, le: 0.1 }, metricName: 'http_request_duration_seconds_bucket' },
        { value: requests, labels: { le: '+Inf', ...labels }, metricName: 'http_request_duration_seconds_bucket' },
        { value: requests, labels, metricName: 'http_request_duration_seconds_count' },
      ],
    },
    { name: 'heap_bytes', help: 'h', type: 'gauge', aggregator: 'sum', values: [{ value: 1, labels: { pid } }] },
  ];
}

/** What the asking worker's AggregatorRegistry.aggregate would serve: the values of `name` (one sample name) summed. */
function total(answer: MetricsAnswer, name: string, sample?: string): number {
  let sum = 0;
  for (const snapshot of answer.snapshots) {
    for (const metric of snapshot as Array<{ name: string; values: Array<{ value: number; metricName?: string; labels: Record<string, unknown> }> }>) {
      if (metric.name !== name) continue;
      for (const value of metric.values) if (sample === undefined || (value.metricName === sample && value.labels.le === '+Inf')) sum += value.value;
    }
  }
  return sum;
}
