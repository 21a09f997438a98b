'use strict';
// bench/RESULTS.md: the latest run as tables (targets, throughput per endpoint, cold start, scaling,
// memory, `trellis create`), with the command that reproduces it.
const { ENDPOINTS } = require('../endpoints');
const { ratio } = require('../stats');
const { evaluateTargets, fmt } = require('./targets');

const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : 'n/a');
const mb = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const range = (s, f) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
const MET = { true: 'met', false: '**missed**', null: 'not measured' };

function table(head, rows) {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function throughputSection(results) {
  const out = [];
  const rps = (id, e) => results.throughput[id]?.[e]?.rps.median;
  for (const endpoint of ENDPOINTS) {
    const rows = results.contenders
      .filter((c) => results.throughput[c.id]?.[endpoint.id])
      .map((c) => {
        const cell = results.throughput[c.id][endpoint.id];
        const warn = cell.wrong || cell.socketErrors ? ` ⚠ ${cell.wrong} wrong, ${cell.socketErrors} socket errors` : '';
        return [
          c.label,
          range(cell.rps, int) + warn,
          fmt(ratio(cell.rps.median, rps('raw', endpoint.id))),
          fmt(ratio(cell.rps.median, rps('express', endpoint.id))),
          ms(cell.p50.median),
          ms(cell.p99.median),
          int(cell.cpuUs.median),
          mb(cell.peakMB.median),
        ];
      });
    out.push(`### ${endpoint.label}`, '', table(['contender', 'req/s median (min–max)', '× raw', '× Express', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'peak RSS MB'], rows), '');
  }
  return out;
}

function renderMarkdown(results) {
  const { settings, machine } = results;
  const lines = [
    '# Benchmark results',
    '',
    `Latest run: ${results.date}, ${results.quick ? '**quick smoke run (not for comparison)**' : 'full run'}, ` +
      `${Math.round(results.durationSeconds / 60)} min. Reproduce with \`npm run bench\` (\`npm run bench -- --quick\` for a smoke run).`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}. ` +
      (machine.pinned ? 'Server pinned to core 0, wrk and the harness to core 1 (`taskset`).' : '**Not pinned** (taskset missing or one core).'),
    '',
    `Method: wrk, 1 thread, ${settings.connections} connections; every cell is a fresh server process, ` +
      `${settings.warmupSeconds} s warm-up then ${settings.measureSeconds} s measured, ${settings.repetitions} repetitions, ` +
      'contenders interleaved and rotated. Figures are medians with min–max. Single runs on this machine swing by ' +
      '10–80 % (CPU steal), so compare ratios within this run, not absolute numbers across runs. ' +
      '"server CPU µs/req" is the server process\'s user+system CPU time divided by the requests answered: ' +
      'stolen time is not in it, so it is the steadier figure of a framework\'s cost.',
    '',
    '![req/s per contender and endpoint](results.svg)',
    '',
    '## Targets',
    '',
    table(
      ['figure', 'target', 'measured (req/s)', 'result', 'same ratio by server CPU/req'],
      evaluateTargets(results).map((t) => [t.figure, t.target, t.measured, MET[t.met], t.byCpu]),
    ),
    '',
    '## Throughput',
    '',
    'trellis programmatic runs `bench/apps/trellis.ts` through `register.js` (the @swc/core hook `trellis run` uses): ' +
      'two routers and nothing else, like the peers\' apps. "trellis (sample, no CLI)" is the project `trellis create` ' +
      'made, assembled by the loader `trellis run` uses and served by the framework\'s `listen` (`bench/apps/trellis-sample.ts`): ' +
      'the same routers, services and global Timing middleware as "trellis run (sample)", without the CLI. ' +
      '"trellis run --no-access-log" is `trellis run` with its access log (one JSON line per request, on by default) off. ' +
      'Invalid bodies get 422 from trellis and raw node:http, 400 from the others.',
    '',
    ...results.contenders.filter((c) => c.note).map((c) => `- ${c.label}: ${c.note}.`),
    '',
    ...throughputSection(results),
  ];
  lines.push(...cliOverheadSection(results), ...coldStartSection(results), ...scalingSection(results), ...memorySection(results), ...createSection(results));
  if (results.leftOut.length) {
    lines.push('## Left out', '', ...results.leftOut.map((l) => `- ${l.id}: ${l.reason.replace(/\n/g, ' ')}`), '');
  }
  return lines.join('\n');
}

function cliOverheadSection(results) {
  const overhead = results.cliOverhead;
  if (!overhead) return [];
  const label = (id) => results.contenders.find((c) => c.id === id)?.label ?? id;
  const rows = [];
  for (const [endpointId, byContender] of Object.entries(overhead)) {
    const endpoint = ENDPOINTS.find((e) => e.id === endpointId)?.label ?? endpointId;
    const base = byContender['trellis-sample'];
    for (const id of ['trellis-sample', 'trellis-run', 'trellis-run-quiet'].filter((k) => byContender[k])) {
      const cell = byContender[id];
      const extra = cell.cpuUs.median - base.cpuUs.median;
      rows.push([
        endpoint,
        label(id),
        range(cell.rps, int),
        fmt(ratio(cell.rps.median, base.rps.median)),
        range(cell.cpuUs, (n) => n.toFixed(1)),
        id === 'trellis-sample' ? '' : `${extra >= 0 ? '+' : ''}${extra.toFixed(1)}`,
      ]);
    }
  }
  const n = Object.values(Object.values(overhead)[0])[0].rps.n;
  return [
    '## What `trellis run` adds per request',
    '',
    `The sample served without the CLI, by \`trellis run\`, and by \`trellis run --no-access-log\`: ${n} fresh processes ` +
      'each per endpoint, interleaved (more than the matrix above: the difference sought is a few per cent).',
    '',
    table(['endpoint', 'contender', 'req/s median (min–max)', '× sample', 'server CPU µs/req median (min–max)', 'µs/req over the sample'], rows),
    '',
  ];
}

function coldStartSection(results) {
  if (!results.coldStart) return [];
  const express = results.coldStart.express?.median;
  const rows = results.contenders
    .filter((c) => results.coldStart[c.id])
    .map((c) => [c.label, range(results.coldStart[c.id], int), fmt(ratio(results.coldStart[c.id].median, express))]);
  return [
    '## Cold start',
    '',
    `Spawn to the first 200 on GET /tasks/1, median of ${results.settings.coldStartRuns}.`,
    '',
    table(['contender', 'ms median (min–max)', '× Express'], rows),
    '',
  ];
}

function scalingSection(results) {
  if (!results.scaling) return [];
  const counts = Object.keys(results.scaling).map(Number).sort((a, b) => a - b);
  const base = results.scaling[counts[0]].rps.median;
  const rows = counts.map((n) => {
    const s = results.scaling[n];
    return [int(n), `\`GET ${s.path}\``, range(s.rps, int), fmt(ratio(s.rps.median, base)), ms(s.p99.median)];
  });
  return [
    '## Route-count scaling (trellis)',
    '',
    'Generated routers of 10 routes each (static, `{id}` and nested-parameter paths over five methods); the measured ' +
      'route is `GET /resourceK/{id}` of the middle router.',
    '',
    table(['routes', 'measured route', 'req/s median (min–max)', `× ${counts[0]} routes`, 'p99 ms'], rows),
    '',
  ];
}

function memorySection(results) {
  if (!results.memory) return [];
  const rows = results.contenders
    .filter((c) => results.memory[c.id])
    .map((c) => {
      const m = results.memory[c.id];
      return [c.label, mb(m.idleMB), mb(m.warmMB), mb(m.afterMB), mb(m.growthMB), mb(m.trendMB), mb(m.growthFromIdleMB), mb(m.peakMB)];
    });
  return [
    '## Memory',
    '',
    `RSS of a fresh server 1 s after its first answer ("idle"), after a warm-up of ${int(results.settings.memoryRequests / 2)} ` +
      `requests ("warm"), and after ${int(results.settings.memoryRequests)} more ("after"), all cycling over the four endpoints ` +
      '(a quarter of them create a task, which the in-memory store keeps). "growth" is after − warm, what the requests ' +
      'retained as one reading shows it; "trend" is the least-squares slope of RSS read after each tenth of them, times ' +
      'their number: a single reading lands anywhere in the garbage collector\'s cycle, the trend does not. ' +
      '"from idle" is after − idle, which includes the heap sizing, JIT code and socket buffers every Node ' +
      'server gains in its first requests (compare raw node:http).',
    '',
    table(['contender', 'idle MB', 'warm MB', 'after MB', 'growth MB', 'trend MB', 'from idle MB', 'peak MB'], rows),
    '',
  ];
}

function createSection(results) {
  if (!results.create) return [];
  const text = results.create.error
    ? `\`trellis create\` failed: ${results.create.error}`
    : `\`trellis create <name> --yes\` (no install): ${range(results.create, int)} ms, median of ${results.create.n}.`;
  return ['## `trellis create`', '', text, ''];
}

module.exports = { renderMarkdown };
