'use strict';
// The targets of the benchmark issue, evaluated on one run's medians.
const { ENDPOINTS } = require('../endpoints');
const { ratio } = require('../stats');

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * `[{ figure, target, measured, met, byCpu }]`; `met` is null when the figure could not be measured.
 * `byCpu` gives throughput ratios again from server CPU time per request (B's µs / A's µs for "A / B"),
 * which CPU steal does not distort; the targets themselves are judged on req/s, as the issue states them.
 */
function evaluateTargets(results) {
  const cell = (id, endpoint) => results.throughput?.[id]?.[endpoint];
  const rps = (id, endpoint) => cell(id, endpoint)?.rps.median;
  const cpu = (id, endpoint) => cell(id, endpoint)?.cpuUs?.median;
  const speed = (a, b, endpoint) => ({ rps: ratio(rps(a, endpoint), rps(b, endpoint)), cpu: ratio(cpu(b, endpoint), cpu(a, endpoint)) });
  const row = (figure, target, value, test, detail = fmt(value), byCpu = '') => ({
    figure,
    target,
    measured: detail,
    met: Number.isFinite(value) ? test(value) : null,
    byCpu,
  });
  const rows = [];

  const get = speed('trellis', 'raw', 'get-task');
  rows.push(row('GET /tasks/1, trellis programmatic / raw node:http', '>= 0.60', get.rps, (v) => v >= 0.6, fmt(get.rps), fmt(get.cpu)));
  const post = speed('trellis', 'raw', 'post-task');
  rows.push(row('POST /tasks with validation, trellis / raw', '>= 0.40', post.rps, (v) => v >= 0.4, fmt(post.rps), fmt(post.cpu)));

  const lowest = (a, b) => {
    const ratios = ENDPOINTS.map((e) => speed(a, b, e.id));
    const min = Math.min(...ratios.map((r) => r.rps));
    return { min, detail: perEndpoint(ratios.map((r) => r.rps), min), byCpu: perEndpoint(ratios.map((r) => r.cpu), Math.min(...ratios.map((r) => r.cpu))) };
  };
  // What the CLI adds per request: the same project with and without it (the minimal programmatic app has
  // neither the sample's routers nor its global middleware). Without the trellis-sample contender, against that.
  // With the CLI-overhead phase (more repetitions of just these contenders), its medians decide.
  const overhead = results.cliOverhead;
  if (overhead) {
    const lowestOf = (id) => {
      const endpoints = Object.keys(overhead);
      const rpsRatios = endpoints.map((e) => ratio(overhead[e][id].rps.median, overhead[e]['trellis-sample'].rps.median));
      const cpuRatios = endpoints.map((e) => ratio(overhead[e]['trellis-sample'].cpuUs.median, overhead[e][id].cpuUs.median));
      const list = (values) => `${fmt(Math.min(...values))} (${endpoints.map((e, i) => `${e} ${fmt(values[i])}`).join(', ')})`;
      return { min: Math.min(...rpsRatios), detail: list(rpsRatios), byCpu: list(cpuRatios) };
    };
    const reps = overhead[Object.keys(overhead)[0]]['trellis-run'].rps.n;
    const run = lowestOf('trellis-run');
    rows.push(row(`trellis via \`trellis run\` / the sample served without the CLI (${reps} runs each, lowest endpoint)`, '>= 0.95', run.min, (v) => v >= 0.95, run.detail, run.byCpu));
    const quiet = lowestOf('trellis-run-quiet');
    rows.push(row('the same, `trellis run --no-access-log` (the CLI without its access log)', '>= 0.95', quiet.min, (v) => v >= 0.95, quiet.detail, quiet.byCpu));
  } else {
    const base = results.throughput?.['trellis-sample'] ? 'trellis-sample' : 'trellis';
    const run = lowest('trellis-run', base);
    const against = base === 'trellis-sample' ? 'the sample served without the CLI' : 'trellis programmatic';
    rows.push(row(`trellis via \`trellis run\` / ${against} (lowest endpoint)`, '>= 0.95', run.min, (v) => v >= 0.95, run.detail, run.byCpu));
  }

  // Issue 15: faster than Fastify on every endpoint, the minimal apps and the sample as users run it (built, access
  // log on) against Fastify with its request logging on.
  const fastify = lowest('trellis', 'fastify');
  rows.push(row('trellis (BaseRouter) / Fastify (lowest endpoint)', '>= 1.0', fastify.min, (v) => v >= 1, fastify.detail, fastify.byCpu));
  // Like for like: Fastify sending the request id and nosniff headers trellis sends on every response.
  const headers = lowest('trellis', 'fastify-headers');
  rows.push(row("trellis (BaseRouter) / Fastify sending trellis's two headers (lowest endpoint)", '>= 1.0', headers.min, (v) => v >= 1, headers.detail, headers.byCpu));
  const logged = lowest('trellis-built', 'fastify-logged');
  rows.push(row('the sample built, access log on / Fastify with request logging (lowest endpoint)', '>= 1.0', logged.min, (v) => v >= 1, logged.detail, logged.byCpu));
  rows.push(row('POST /tasks, trellis / raw node:http (issue 15)', '>= 0.85', post.rps, (v) => v >= 0.85, fmt(post.rps), fmt(post.cpu)));

  for (const peer of ['routing-controllers', 'nest']) {
    const r = lowest('trellis', peer);
    rows.push(row(`trellis / ${peer === 'nest' ? 'NestJS' : peer} (lowest endpoint)`, '>= 4', r.min, (v) => v >= 4, r.detail, r.byCpu));
  }

  const counts = Object.keys(results.scaling ?? {}).map(Number);
  const most = Math.max(...counts);
  const least = Math.min(...counts);
  const scale = ratio(results.scaling?.[most]?.rps.median, results.scaling?.[least]?.rps.median);
  rows.push(row(`GET with ${most.toLocaleString('en-US')} routes / with ${least} routes`, '>= 0.90', counts.length > 1 ? scale : NaN, (v) => v >= 0.9));

  const cold = ratio(results.coldStart?.['trellis-run']?.median, results.coldStart?.express?.median);
  rows.push(row('cold start `trellis run` (sample) / bare Express 5', '<= 1.5', cold, (v) => v <= 1.5));
  const coldBuilt = ratio(results.coldStart?.['trellis-built']?.median, results.coldStart?.express?.median);
  rows.push(row('cold start `node dist/main.js` (sample, built) / bare Express 5', '<= 1.0', coldBuilt, (v) => v <= 1));

  const growth = ['trellis', 'trellis-sample', 'trellis-run', 'trellis-run-quiet', 'trellis-built'].map((id) => results.memory?.[id]?.trendMB).filter(Number.isFinite);
  const worst = growth.length ? Math.max(...growth) : NaN;
  const requests = (results.settings?.memoryRequests ?? 0).toLocaleString('en-US');
  rows.push(row(`RSS growth over ${requests} requests after warm-up (trend of 10 readings), trellis (worst contender)`, '< 20 MB', worst, (v) => v < 20, `${fmt(worst, 1)} MB`));
  return rows;
}

function perEndpoint(ratios, min) {
  if (!Number.isFinite(min)) return 'n/a';
  return `${fmt(min)} (${ENDPOINTS.map((e, i) => `${e.id} ${fmt(ratios[i])}`).join(', ')})`;
}

module.exports = { evaluateTargets, fmt };
