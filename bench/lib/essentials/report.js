'use strict';
// The markdown bench/essentials.js prints: one table per part, medians over the rounds, each pair as a ratio.
const { median, ratio } = require('../stats');
const { fmt } = require('../report/targets');

/** @typedef {Record<string, Record<string, Array<Record<string, number>>>>} Cells measurement -> contender -> cells */
/** @typedef {import('./contenders').Measurement} Measurement */

/** The median of `key` over the cells of `id` in `measurement` (NaN when none). */
function medianOf(/** @type {Cells} */ cells, measurement, id, key) {
  const list = cells[measurement]?.[id];
  return list?.length ? median(list.map((cell) => cell[key])) : NaN;
}

const percent = (n) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : 'n/a');

/**
 * Each feature on against the same app without it: req/s, the cost (1 - on / off) by req/s and by server CPU per
 * request (on / off - 1), against the pair's `maxCost` where it has one.
 * @param {Cells} cells
 * @param {Measurement[]} measurements the overhead pairs, `[on, off]`
 */
function overheadTable(cells, measurements) {
  const lines = [
    '| feature | request | off req/s | on req/s | on / off | cost by req/s | server CPU µs/req (off, on) | cost by CPU | target | p99 ms (off, on) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const { id, label, contenders: [on, off], feature, maxCost, reference } of measurements) {
    const m = (who, key) => medianOf(cells, id, who, key);
    const r = ratio(m(on, 'rps'), m(off, 'rps'));
    const cpuCost = ratio(m(on, 'cpuUs'), m(off, 'cpuUs')) - 1;
    const target = maxCost === undefined ? (reference ? 'Fastify, for reference' : 'reported') : `<= ${maxCost * 100} %: ${Number.isFinite(r) ? (1 - r <= maxCost ? 'met' : 'missed') : 'n/a'}`;
    lines.push(
      `| ${feature} | ${label} | ${fmt(m(off, 'rps'), 0)} | ${fmt(m(on, 'rps'), 0)} | ${fmt(r, 3)} | ${percent(1 - r)} | ` +
        `${fmt(m(off, 'cpuUs'), 1)}, ${fmt(m(on, 'cpuUs'), 1)} | ${percent(cpuCost)} | ${target} | ${fmt(m(off, 'p99'))}, ${fmt(m(on, 'p99'))} |`,
    );
  }
  return lines.join('\n');
}

/**
 * trellis against Fastify, one row per measurement `[trellis, Fastify]`: the rate (req/s or messages/s), trellis /
 * Fastify by it and by server CPU per request, against `target` (a least ratio) when given, else against a row's
 * own `minRatio` where it has one; `bytes` adds the
 * answer's size on the wire per contender (the compression rows).
 * @param {Cells} cells
 * @param {Measurement[]} measurements
 * @param {{ unit: string, target?: number, bytes?: Record<string, Record<string, number>> }} options
 */
function pairTable(cells, measurements, { unit, target, bytes }) {
  const lines = [
    `| measurement | trellis ${unit} | Fastify ${unit} | trellis / Fastify | by CPU | ${target === undefined ? 'target' : `target >= ${fmt(target, 1)}`} | ` +
      `${bytes ? 'bytes sent (trellis, Fastify) | ' : ''}p99 ms (trellis, Fastify) | server CPU µs each (trellis, Fastify) |`,
    `|---|---:|---:|---:|---:|---|${bytes ? '---:|' : ''}---:|---:|`,
  ];
  for (const { id, label, contenders: [a, b], minRatio } of measurements) {
    const m = (who, key) => medianOf(cells, id, who, key);
    const r = ratio(m(a, 'rps'), m(b, 'rps'));
    // A row's own least ratio (minRatio) where the table has none: `>= 1.0: met`.
    const least = target ?? minRatio;
    const met = least === undefined ? 'reported' : Number.isFinite(r) ? (r >= least ? 'met' : 'missed') : 'n/a';
    const verdict = target === undefined && least !== undefined ? `>= ${fmt(least, 1)}: ${met}` : met;
    const size = bytes ? `${bytes[id]?.[a] ?? 'n/a'}, ${bytes[id]?.[b] ?? 'n/a'} | ` : '';
    lines.push(
      `| ${label} | ${fmt(m(a, 'rps'), 0)} | ${fmt(m(b, 'rps'), 0)} | ${fmt(r)} | ${fmt(ratio(m(b, 'cpuUs'), m(a, 'cpuUs')))} | ${verdict} | ` +
        `${size}${fmt(m(a, 'p99'))}, ${fmt(m(b, 'p99'))} | ${fmt(m(a, 'cpuUs'), 1)}, ${fmt(m(b, 'cpuUs'), 1)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The memory of idle connections, one row per contender: RSS and heap used (after a full collection) before and
 * after opening them, and what each connection adds (KB).
 * @param {Cells} cells
 * @param {Measurement} measurement
 * @param {Record<string, string>} labels contender id -> label
 */
function idleTable(cells, { id, contenders }, labels) {
  const lines = [
    '| server | connections | RSS MB (before, after) | RSS KB per connection | heap used MB (before, after) | heap KB per connection | external MB (before, after) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const who of contenders) {
    const m = (key) => medianOf(cells, id, who, key);
    const n = m('connections');
    const perConnection = (before, after) => fmt(((m(after) - m(before)) * 1024) / n, 1);
    lines.push(
      `| ${labels[who] ?? who} | ${fmt(n, 0)} | ${fmt(m('rssBeforeMB'), 1)}, ${fmt(m('rssAfterMB'), 1)} | ${perConnection('rssBeforeMB', 'rssAfterMB')} | ` +
        `${fmt(m('heapBeforeMB'), 1)}, ${fmt(m('heapAfterMB'), 1)} | ${perConnection('heapBeforeMB', 'heapAfterMB')} | ${fmt(m('externalBeforeMB'), 1)}, ${fmt(m('externalAfterMB'), 1)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The whole markdown: `run` (what was run, on what), a section per part measured, then what was left out.
 * @param {Cells} cells
 * @param {Measurement[]} measured
 * @param {{ run: string, labels: Record<string, string>, bytes: Record<string, Record<string, number>>, leftOut: Array<{ id: string, reason: string }> }} facts
 */
function essentialsReport(cells, measured, { run, labels, bytes, leftOut }) {
  const of = (group) => measured.filter((m) => m.group === group);
  const section = (group, title, table) => (of(group).length ? [`## ${title}\n`, table(of(group)), ''] : []);
  const servers = [...new Set(measured.flatMap((m) => m.contenders))].map((id) => `- \`${id}\`: ${labels[id] ?? id}`);
  return [
    `${run}; medians\n`,
    ...section('overhead', 'Cost per request of each feature (GET /tasks/1, on / off)', (list) => overheadTable(cells, list)),
    ...section('compression', 'Compression of a 20 KB JSON answer: trellis compression() / Fastify @fastify/compress', (list) => pairTable(cells, list, { unit: 'req/s', target: 1, bytes })),
    ...section('redis', 'A rate-limited route counted in Redis: trellis redisStore / @fastify/rate-limit', (list) => pairTable(cells, list, { unit: 'req/s' })),
    ...section('websocket', 'WebSocket echo: a trellis gateway / @fastify/websocket', (list) => pairTable(cells, list, { unit: 'msg/s' })),
    ...section('idle', 'Idle WebSocket connections', (list) => idleTable(cells, list[0], labels)),
    '## Servers\n',
    ...servers,
    '',
    ...leftOut.map(({ id, reason }) => `left out ${id}: ${reason}\n`),
  ].join('\n');
}

module.exports = { essentialsReport, overheadTable, pairTable, idleTable, medianOf };
