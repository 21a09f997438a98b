'use strict';
// The markdown bench/database.js prints: throughput per pair against the >= 1.0 target, the starts and what the
// database adds to them against the 300 ms target, and the production install of each sample.
const { median, ratio } = require('../stats');
const { fmt } = require('../report/targets');

const verdict = (met) => (met === null ? 'n/a' : met ? 'met' : 'missed');

/**
 * @param {Record<string, Record<string, Array<{ rps: number, cpuUs: number, p99: number }>>>} cells endpoint -> contender -> cells
 * @param {Array<[string, string]>} pairs
 * @param {Array<{ id: string, label: string }>} endpoints
 * @param {Array<{ id: string, backend: string }>} contenders
 */
function throughputTable(cells, pairs, endpoints, contenders) {
  const m = (endpoint, id, key) => {
    const list = cells[endpoint]?.[id];
    return list?.length ? median(list.map((cell) => cell[key])) : NaN;
  };
  const lines = [
    '| endpoint | database | trellis req/s | Fastify req/s | trellis / Fastify | by CPU | target >= 1.0 | p99 ms (trellis, Fastify) | server CPU µs/req (trellis, Fastify) |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const e of endpoints) {
    for (const [a, b] of pairs) {
      const backend = contenders.find((c) => c.id === a)?.backend ?? a;
      const [ra, rb] = [m(e.id, a, 'rps'), m(e.id, b, 'rps')];
      const r = ratio(ra, rb);
      const [ca, cb] = [m(e.id, a, 'cpuUs'), m(e.id, b, 'cpuUs')];
      lines.push(
        `| ${e.label} | ${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${fmt(ra, 0)} | ${fmt(rb, 0)} | ${fmt(r)} | ${fmt(ratio(cb, ca))} | ` +
          `${verdict(Number.isFinite(r) ? r >= 1 : null)} | ${fmt(m(e.id, a, 'p99'))}, ${fmt(m(e.id, b, 'p99'))} | ${fmt(ca, 1)}, ${fmt(cb, 1)} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * @param {Record<string, { median: number, min: number, max: number, n: number }>} times
 * @param {Array<{ id: string, label?: string }>} contenders
 * @param {Array<[string, string, string]>} added `[figure, with database, without]`
 */
function startsTable(times, contenders, added) {
  const lines = ['| start | median ms | min | max | n |', '|---|---:|---:|---:|---:|'];
  for (const c of contenders) {
    const t = times[c.id];
    if (t) lines.push(`| ${c.label ?? c.id} | ${fmt(t.median, 0)} | ${fmt(t.min, 0)} | ${fmt(t.max, 0)} | ${t.n} |`);
  }
  lines.push('', '| added by the database | ms (median of --db less median in memory) | target < 300 |', '|---|---:|---|');
  for (const [figure, db, memory] of added) {
    const ms = (times[db]?.median ?? NaN) - (times[memory]?.median ?? NaN);
    lines.push(`| ${figure} | ${fmt(ms, 0)} | ${verdict(Number.isFinite(ms) ? ms < 300 : null)} |`);
  }
  return lines.join('\n');
}

/** @param {{ memory: { bytes: number, packages: number }, db: { bytes: number, packages: number } }} sizes */
function installTable(sizes) {
  const mb = (bytes) => fmt(bytes / 1e6, 1);
  return [
    '| `npm install --omit=dev` | node_modules MB (du) | packages |',
    '|---|---:|---:|',
    `| in-memory sample | ${mb(sizes.memory.bytes)} | ${sizes.memory.packages} |`,
    `| --db sample | ${mb(sizes.db.bytes)} | ${sizes.db.packages} |`,
    `| added by --db | ${mb(sizes.db.bytes - sizes.memory.bytes)} | ${sizes.db.packages - sizes.memory.packages} |`,
  ].join('\n');
}

module.exports = { throughputTable, startsTable, installTable };
