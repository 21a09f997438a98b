'use strict';
// The harness's own checks (not part of `npm test`; run with `node --test bench/tests/`): parsing wrk,
// statistics, targets, and the Markdown and SVG reports of a made-up run.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { parseWrk } = require('../lib/wrk');
const { median, summarize, rotate, ratio, slope } = require('../lib/stats');
const { evaluateTargets } = require('../lib/report/targets');
const { renderMarkdown } = require('../lib/report/markdown');
const { renderChart } = require('../lib/report/chart');
const { pairTable } = require('../lib/report/pairs');

const WRK_OUTPUT = `Running 1s test @ http://127.0.0.1:9720/
  1 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.56ms    3.51ms  30.39ms   93.43%
    Req/Sec    14.11k    10.56k   26.04k    50.00%
  Latency Distribution
     50%  318.00us
     75%    1.19ms
     90%    3.70ms
     99%   21.88ms
  14068 requests in 1.00s, 5.53MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 14068
Requests/sec:  14042.16
Transfer/sec:      5.52MB
`;

describe('wrk output', () => {
  it('reads throughput, latency percentiles in ms, status and socket error counts', () => {
    assert.deepEqual(parseWrk(WRK_OUTPUT), {
      requestsPerSecond: 14042.16,
      requests: 14068,
      p50: 0.318,
      p99: 21.88,
      non2xx: 14068,
      socketErrors: 5,
    });
  });

  it('reads seconds and counts a run without errors as zero', () => {
    const text = WRK_OUTPUT.replace('21.88ms', '1.20s').replace(/ {2}Socket errors.*\n {2}Non-2xx.*\n/, '');
    const parsed = parseWrk(text);
    assert.equal(parsed.p99, 1200);
    assert.equal(parsed.non2xx, 0);
    assert.equal(parsed.socketErrors, 0);
  });
});

describe('statistics', () => {
  it('takes the median of odd and even counts', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.deepEqual(summarize([3, 1, 2]), { median: 2, min: 1, max: 3, n: 3 });
  });

  it('rotates the order so each repetition starts elsewhere', () => {
    assert.deepEqual(rotate(['a', 'b', 'c'], 4), ['b', 'c', 'a']);
    assert.ok(Number.isNaN(ratio(1, 0)));
  });

  it('fits the trend of RSS readings: a sawtooth without growth is flat, a leak is its slope', () => {
    const done = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => k * 10_000);
    const sawtooth = [100, 120, 100, 120, 100, 120, 100, 120, 100, 120];
    // The last reading minus the first says +20 MB; the trend sees 6 MB of the sawtooth's phase, not a leak.
    assert.ok(Math.abs(slope(done, sawtooth) * 100_000 - 6.06) < 0.01);
    const leak = done.map((n) => 100 + n / 1000); // 1 MB per thousand requests
    assert.ok(Math.abs(slope(done, leak) * 100_000 - 100) < 1e-9);
    assert.ok(Number.isNaN(slope([1], [1])));
  });
});

const s = (median, spread = 0.1) => ({ median, min: median * (1 - spread), max: median * (1 + spread), n: 5 });
const cell = (rps) => ({ rps: s(rps), p50: s(1), p99: s(5), cpuUs: s(1e6 / rps), peakMB: s(80), wrong: 0, socketErrors: 0 });
const RATES = {
  raw: 40000,
  express: 5000,
  'routing-controllers': 2500,
  nest: 3000,
  trellis: 26000,
  'trellis-run': 25000,
};
const LABELS = { raw: 'raw node:http', express: 'Express 5.3.0', 'routing-controllers': 'routing-controllers 0.11.3', nest: 'NestJS 11', trellis: 'trellis (BaseRouter)', 'trellis-run': 'trellis run (sample)' };

function madeUpRun() {
  const throughput = {};
  for (const [id, rps] of Object.entries(RATES)) {
    throughput[id] = { 'get-task': cell(rps), search: cell(rps * 0.9), 'post-task': cell(rps * 0.5), 'post-invalid': cell(rps * 0.6) };
  }
  throughput.trellis['post-task'] = cell(RATES.raw * 0.5 * 0.3); // POST trellis / raw = 0.30: missed
  return {
    date: '2026-01-02T03:04:05.000Z',
    quick: false,
    durationSeconds: 1100,
    settings: { repetitions: 5, warmupSeconds: 1, measureSeconds: 3, connections: 64, coldStartRuns: 10, memoryRequests: 100000 },
    machine: { cpu: 'Test CPU', cores: 2, memoryGiB: 8, platform: 'Linux', node: 'v20', pinned: true },
    contenders: Object.keys(RATES).map((id) => ({ id, label: LABELS[id] })),
    leftOut: [{ id: 'hono', reason: 'GET /tasks/1: got 500 <html>' }],
    throughput,
    coldStart: { express: s(150), 'trellis-run': s(450) },
    scaling: { 10: { path: '/resource0/7', rps: s(30000), p99: s(4) }, 1000: { path: '/resource50/7', rps: s(28500), p99: s(4.4) } },
    memory: { trellis: { idleMB: 100, warmMB: 130, afterMB: 135, growthMB: 5, trendMB: 4.2, growthFromIdleMB: 35, peakMB: 140 } },
    create: s(900),
  };
}

describe('targets', () => {
  it('evaluates each target of the issue on the medians, n/a where a figure is missing', () => {
    const rows = Object.fromEntries(evaluateTargets(madeUpRun()).map((t) => [t.figure.split(',')[0].split(' (')[0], t]));
    assert.equal(rows['GET /tasks/1'].measured, '0.65');
    assert.equal(rows['GET /tasks/1'].met, true);
    assert.equal(rows['GET /tasks/1'].byCpu, '0.65'); // made-up CPU time is 1/rps, so both ratios agree
    assert.equal(rows['POST /tasks with validation'].measured, '0.30');
    assert.equal(rows['POST /tasks with validation'].met, false);
    assert.equal(rows['trellis via `trellis run` / trellis programmatic'].met, true);
    assert.equal(rows['trellis / NestJS'].measured, '4.00 (get-task 8.67, search 8.67, post-task 4.00, post-invalid 8.67)');
    assert.equal(rows['trellis / NestJS'].met, true); // the bound is inclusive
    assert.equal(rows['GET with 1'].measured, '0.95');
    assert.equal(rows['cold start `trellis run`'].met, false);
    assert.equal(rows['RSS growth over 100'].measured, '4.2 MB'); // the trend, not the single reading
    assert.equal(rows['RSS growth over 100'].met, true);
    // Issue 15: without Fastify in the run, the figures against it are n/a; POST trellis/raw 0.30 misses 0.85.
    const all = evaluateTargets(madeUpRun());
    assert.equal(all.find((t) => t.figure.startsWith('trellis (BaseRouter) / Fastify')).met, null);
    assert.equal(all.find((t) => t.figure.startsWith('POST /tasks, trellis / raw')).met, false);

    const withFastify = madeUpRun();
    for (const [id, base] of [['fastify', 'trellis'], ['fastify-logged', 'trellis'], ['fastify-headers', 'trellis']]) {
      withFastify.throughput[id] = Object.fromEntries(Object.entries(withFastify.throughput[base]).map(([e, c]) => [e, cell(c.rps.median / 1.25)]));
    }
    withFastify.throughput['trellis-built'] = withFastify.throughput.trellis;
    withFastify.throughput.fastify.search = cell(withFastify.throughput.trellis.search.rps.median * 1.1);
    const fastifyRows = Object.fromEntries(evaluateTargets(withFastify).map((t) => [t.figure.split(' (lowest')[0], t]));
    assert.equal(fastifyRows['trellis (BaseRouter) / Fastify'].measured, '0.91 (get-task 1.25, search 0.91, post-task 1.25, post-invalid 1.25)');
    assert.equal(fastifyRows['trellis (BaseRouter) / Fastify'].met, false);
    // Like for like (Fastify sending the same two headers) is its own row: met here, where search is not against bare Fastify.
    assert.equal(fastifyRows["trellis (BaseRouter) / Fastify sending trellis's two headers"].measured, '1.25 (get-task 1.25, search 1.25, post-task 1.25, post-invalid 1.25)');
    assert.equal(fastifyRows["trellis (BaseRouter) / Fastify sending trellis's two headers"].met, true);
    assert.equal(fastifyRows['the sample built, access log on / Fastify with request logging'].met, true);

    // With the sample served without the CLI in the run, `trellis run` is judged against it, not the minimal app.
    const withSample = madeUpRun();
    withSample.throughput['trellis-sample'] = Object.fromEntries(
      Object.entries(withSample.throughput['trellis-run']).map(([endpoint, c]) => [endpoint, cell(c.rps.median / 0.9)]),
    );
    const sampleRow = evaluateTargets(withSample).find((t) => t.figure.startsWith('trellis via'));
    assert.equal(sampleRow.figure, 'trellis via `trellis run` / the sample served without the CLI (lowest endpoint)');
    assert.equal(sampleRow.measured, '0.90 (get-task 0.90, search 0.90, post-task 0.90, post-invalid 0.90)');
    assert.equal(sampleRow.met, false);

    // With the CLI-overhead phase, its medians decide, and the run without the access log gets its own row.
    const withOverhead = madeUpRun();
    const oc = (rps, cpuUs) => ({ rps: s(rps), cpuUs: s(cpuUs) });
    withOverhead.cliOverhead = {
      'get-task': { 'trellis-sample': oc(50000, 20), 'trellis-run': oc(46000, 21.7), 'trellis-run-quiet': oc(49500, 20.2) },
      'post-task': { 'trellis-sample': oc(25000, 40), 'trellis-run': oc(24500, 40.8), 'trellis-run-quiet': oc(25000, 40) },
    };
    const overheadRows = evaluateTargets(withOverhead).filter((t) => /trellis run/.test(t.figure) && !t.figure.startsWith('cold'));
    assert.deepEqual(overheadRows.map((t) => [t.measured, t.met]), [
      ['0.92 (get-task 0.92, post-task 0.98)', false],
      ['0.99 (get-task 0.99, post-task 1.00)', true],
    ]);
    assert.match(renderMarkdown(withOverhead), /## What `trellis run` adds per request[\s\S]*\| GET \/tasks\/1 \| trellis run \(sample\) \| 46,000 \(41,400–50,600\) \| 0\.92 \| 21\.7 \(19\.5–23\.9\) \| \+1\.7 \|/);

    const partial = { ...madeUpRun(), coldStart: undefined, memory: {} };
    const byFigure = evaluateTargets(partial);
    assert.equal(byFigure.find((t) => t.figure.startsWith('cold start')).met, null);
    assert.equal(byFigure.find((t) => t.figure.startsWith('RSS')).measured, 'n/a MB');
  });
});

describe('reports', () => {
  it('writes every table of the run to Markdown, with ratios and left-out contenders', () => {
    const text = renderMarkdown(madeUpRun());
    assert.match(text, /^# Benchmark results/);
    assert.match(text, /!\[req\/s per contender and endpoint\]\(results\.svg\)/);
    assert.match(text, /\| trellis \(BaseRouter\) \| 26,000 \(23,400–28,600\) \| 0\.65 \| 5\.20 \|/);
    assert.match(text, /\| POST \/tasks with validation, trellis \/ raw \| >= 0\.40 \| 0\.30 \| \*\*missed\*\* \| 0\.30 \|/);
    assert.match(text, /## Cold start[\s\S]*\| trellis run \(sample\) \| 450 \(405–495\) \| 3\.00 \|/);
    assert.match(text, /## Route-count scaling[\s\S]*\| 1,000 \| `GET \/resource50\/7` \| 28,500/);
    assert.match(text, /## Memory[\s\S]*\| trellis \(BaseRouter\) \| 100\.0 \| 130\.0 \| 135\.0 \| 5\.0 \| 4\.2 \| 35\.0 \| 140\.0 \|/);
    assert.match(text, /- hono: GET \/tasks\/1: got 500 <html>/);
  });

  it('draws one bar per contender and endpoint with its ratio to raw, escaping text', () => {
    const run = madeUpRun();
    run.contenders[1].label = 'Express & co <5>';
    const svg = renderChart(run);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.equal((svg.match(/<rect x=/g) ?? []).length, 4 * 6);
    assert.match(svg, /26,000 req\/s · 0\.65× raw/);
    assert.match(svg, /Express &amp; co &lt;5&gt;/);
    assert.doesNotMatch(svg, /NaN|undefined/);
    assert.equal((svg.match(/<text/g) ?? []).length, (svg.match(/<\/text>/g) ?? []).length);
    assert.ok(svg.trimEnd().endsWith('</svg>'));
  });
});

describe('vs-fastify table', () => {
  it('gives each contender its medians and each present pair its ratios by req/s and by CPU', () => {
    const endpoints = [{ id: 'get-task', label: 'GET /tasks/1' }];
    const cells = { 'get-task': {
      raw: [{ rps: 100, cpuUs: 10 }, { rps: 120, cpuUs: 8 }, { rps: 110, cpuUs: 9 }],
      fastify: [{ rps: 80, cpuUs: 12 }],
      trellis: [{ rps: 88, cpuUs: 10 }],
    } };
    const contenders = [{ id: 'raw' }, { id: 'fastify', label: 'Fastify 5' }, { id: 'trellis' }];
    const table = pairTable(cells, contenders, [['trellis', 'fastify'], ['trellis-built', 'fastify-logged']], endpoints).split('\n');
    assert.equal(table[2], '| GET /tasks/1 | raw | 110 | 1.00 | 9.0 |');
    assert.equal(table[3], '| GET /tasks/1 | Fastify 5 | 80 | 0.73 | 12.0 |');
    assert.equal(table[6], '| endpoint | trellis / fastify req/s | by CPU |'); // the absent pair has no column
    assert.equal(table[8], '| GET /tasks/1 | 1.10 | 1.20 |');
  });
});
