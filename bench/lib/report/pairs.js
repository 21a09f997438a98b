'use strict';
// The table bench/vs-fastify.js prints: every contender's medians per endpoint, then each pair's ratios.
const { median, ratio } = require('../stats');
const { fmt } = require('./targets');

/**
 * Markdown: per endpoint, each contender's median req/s, its ratio to raw node:http and its server CPU µs per
 * request; then, per pair `[a, b]`, a / b by req/s and by CPU (b's µs / a's µs: above 1 means a is cheaper).
 * @param {Record<string, Record<string, Array<{ rps: number, cpuUs: number }>>>} cells endpoint -> contender -> cells
 * @param {Array<{ id: string, label?: string }>} contenders
 * @param {Array<[string, string]>} pairs
 * @param {Array<{ id: string, label: string }>} endpoints
 */
function pairTable(cells, contenders, pairs, endpoints) {
  const m = (endpoint, id, key) => {
    const list = cells[endpoint]?.[id];
    return list?.length ? median(list.map((cell) => cell[key])) : NaN;
  };
  const lines = ['| endpoint | contender | req/s | × raw | server CPU µs/req |', '|---|---|---:|---:|---:|'];
  for (const e of endpoints) {
    for (const c of contenders) {
      const rps = m(e.id, c.id, 'rps');
      lines.push(`| ${e.label} | ${c.label ?? c.id} | ${Number.isFinite(rps) ? Math.round(rps) : 'n/a'} | ${fmt(ratio(rps, m(e.id, 'raw', 'rps')))} | ${fmt(m(e.id, c.id, 'cpuUs'), 1)} |`);
    }
  }
  const present = pairs.filter(([a, b]) => contenders.some((c) => c.id === a) && contenders.some((c) => c.id === b));
  if (present.length) {
    lines.push('', `| endpoint | ${present.map(([a, b]) => `${a} / ${b} req/s | by CPU`).join(' | ')} |`);
    lines.push(`|---|${present.map(() => '---:|---:').join('|')}|`);
    for (const e of endpoints) {
      const cols = present.map(([a, b]) => `${fmt(ratio(m(e.id, a, 'rps'), m(e.id, b, 'rps')))} | ${fmt(ratio(m(e.id, b, 'cpuUs'), m(e.id, a, 'cpuUs')))}`);
      lines.push(`| ${e.label} | ${cols.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

module.exports = { pairTable };
