import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childrenOf, cleanup, copyFixture, freshGet, Running } from './run-support';

const running: Running[] = [];
after(async () => {
  await Promise.all(running.map((run) => run.stop()));
  cleanup();
});

// Two workers compile and start the project each: seconds of CPU, more on a busy 2-core machine.
const STARTED_WITHIN_MS = 180_000;
const REQUESTS = 40;

// Which worker answered: the spread of the requests is checked, not assumed.
const WHOAMI_ROUTER = `import { Get, router } from 'trellis';

export class WhoamiRouter extends router('/whoami') {
  @Get() whoami() {
    return { pid: process.pid };
  }
}
`;

/** The value of `name{labels}` in a Prometheus text exposition. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(labels === '' ? `${name} ` : `${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Resolves once `condition()` holds (checked every 20 ms), fails after 10 s with what `run` printed. */
async function until(condition: () => boolean, run: Running): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out:\n${run.stdout}\n${run.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const WHOAMI = 'method="GET",route="/whoami",status_code="200"';

/** `trellis run --workers 2` on the fixture with metrics on and a /whoami route; its address and the workers' pids. */
async function startCluster(): Promise<{ run: Running; url: string; workers: number[] }> {
  const dir = copyFixture('healthy');
  writeFileSync(join(dir, 'config.yaml'), 'metrics: { enabled: true }\nadmin: { token: t }\n');
  writeFileSync(join(dir, 'routers', 'whoami.ts'), WHOAMI_ROUTER);
  const run = new Running(['.', '--host', '127.0.0.1', '--port', '0', '--workers', '2', '--no-access-log'], dir);
  running.push(run);
  const url = await run.url(STARTED_WITHIN_MS);
  // The banner comes from the first worker; the second starts after it. Both have answered once both pids did.
  const answered = new Set<number>();
  const deadline = Date.now() + STARTED_WITHIN_MS;
  while (answered.size < 2 && Date.now() < deadline) answered.add(JSON.parse((await freshGet(`${url}/whoami`)).text).pid);
  const workers = childrenOf(run.pid);
  assert.deepEqual([...answered].sort(), [...workers].sort());
  return { run, url, workers };
}

describe('trellis run --workers: /metrics', () => {
  it('sums every worker: the request counter equals the requests sent on every scrape, whichever worker answers it', async () => {
    const { run, url, workers } = await startCluster();
    assert.equal(workers.length, 2);
    const before = sample((await freshGet(`${url}/metrics`)).text, 'http_requests_total', WHOAMI) ?? 0;

    // New connections, each accepted by whichever worker takes it first.
    const served = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const { pid } = JSON.parse((await freshGet(`${url}/whoami`)).text);
      served.set(pid, (served.get(pid) ?? 0) + 1);
    }
    assert.deepEqual([...served.keys()].sort(), [...workers].sort(), 'both workers served some');

    for (let scrape = 0; scrape < 6; scrape++) {
      const { status, text } = await freshGet(`${url}/metrics`);
      assert.equal(status, 200);
      assert.equal(sample(text, 'http_requests_total', WHOAMI), before + REQUESTS, `scrape ${scrape}`);
      assert.equal(sample(text, 'http_request_duration_seconds_count', WHOAMI), before + REQUESTS);
      assert.equal(sample(text, 'http_request_duration_seconds_bucket', `${WHOAMI},le="+Inf"`), before + REQUESTS);
      // Gauges by prom-client's aggregator: the version once (first), the start time left out (omit), memory summed.
      assert.equal(text.match(/^nodejs_version_info\{/gm)?.length, 1);
      assert.equal(sample(text, 'process_start_time_seconds'), undefined);
      assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0);
    }
    assert.equal(run.stderr, '');

    // A worker killed and replaced takes nothing from the sum: Prometheus would read a drop as a counter reset.
    const [killed, survivor] = workers;
    process.kill(killed, 'SIGKILL');
    let polls = 0;
    let replacementServed = false;
    for (const deadline = Date.now() + STARTED_WITHIN_MS; !replacementServed && Date.now() < deadline; ) {
      const now = childrenOf(run.pid);
      if (now.length === 2 && !now.includes(killed)) {
        const { pid } = JSON.parse((await freshGet(`${url}/whoami`)).text);
        polls++;
        replacementServed = pid !== survivor;
      } else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(replacementServed, `the replacement served: ${run.stderr}`);
    const { text } = await freshGet(`${url}/metrics`);
    assert.equal(sample(text, 'http_requests_total', WHOAMI), before + REQUESTS + polls);
    assert.equal(sample(text, 'http_request_duration_seconds_count', WHOAMI), before + REQUESTS + polls);
  });

  it('answers a scrape with the workers that answered when one does not within 1 s, and says which on stderr', async () => {
    const { run, url, workers } = await startCluster();
    const [stopped] = workers;
    const counts = async () => sample((await freshGet(`${url}/metrics`)).text, 'http_requests_total', WHOAMI) ?? 0;
    const total = await counts();

    // A stopped process accepts nothing and answers nothing: the scrape reaches the other one.
    process.kill(stopped, 'SIGSTOP');
    try {
      const started = Date.now();
      const { status, text } = await freshGet(`${url}/metrics`);
      const tookMs = Date.now() - started;
      assert.equal(status, 200);
      assert.ok(tookMs >= 1000 && tookMs < 5000, `answered after the 1 s wait, not hung: ${tookMs} ms`);
      // The silent worker's counters are those of its last answer: the sum does not drop.
      assert.equal(sample(text, 'http_requests_total', WHOAMI), total);
      const line = `trellis: /metrics: worker ${stopped} did not answer within 1000 ms; this scrape sums 1 of 2 workers\n`;
      await until(() => run.stderr.includes(line), run);
      assert.equal(run.stderr, line);
    } finally {
      process.kill(stopped, 'SIGCONT');
    }
    // Back: every scrape sums both again (each scrape adds one /metrics request, not a /whoami one).
    assert.equal(await counts(), total);
  });
});
