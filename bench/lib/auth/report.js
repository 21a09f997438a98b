'use strict';
// The markdown bench/auth.js prints: trellis / Fastify per token algorithm against the >= 1.0 target, and what one
// request-scoped dependency adds to a request.
const { median, ratio } = require('../stats');
const { fmt } = require('../report/targets');

/** @typedef {Record<string, Record<string, Array<{ rps: number, cpuUs: number, p99: number }>>>} Cells endpoint -> contender -> cells */

/** The median of `key` over the cells of `id` on `endpoint` (NaN when none). */
function medianOf(/** @type {Cells} */ cells, endpoint, id, key) {
  const list = cells[endpoint]?.[id];
  return list?.length ? median(list.map((cell) => cell[key])) : NaN;
}

/**
 * @param {Cells} cells
 * @param {Array<{ id: string, label: string, contenders?: string[] }>} endpoints those of a `[trellis, Fastify]` pair
 */
function jwtTable(cells, endpoints) {
  const lines = [
    '| request | trellis req/s | Fastify req/s | trellis / Fastify | by CPU | target >= 1.0 | p99 ms (trellis, Fastify) | server CPU µs/req (trellis, Fastify) |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
  ];
  for (const { id, label, contenders = [] } of endpoints) {
    const [a, b] = contenders;
    const m = (who, key) => medianOf(cells, id, who, key);
    const r = ratio(m(a, 'rps'), m(b, 'rps'));
    const verdict = Number.isFinite(r) ? (r >= 1 ? 'met' : 'missed') : 'n/a';
    lines.push(
      `| ${label} | ${fmt(m(a, 'rps'), 0)} | ${fmt(m(b, 'rps'), 0)} | ${fmt(r)} | ${fmt(ratio(m(b, 'cpuUs'), m(a, 'cpuUs')))} | ${verdict} | ` +
        `${fmt(m(a, 'p99'))}, ${fmt(m(b, 'p99'))} | ${fmt(m(a, 'cpuUs'), 1)}, ${fmt(m(b, 'cpuUs'), 1)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * One row per endpoint: the pair `[with, without]`'s req/s, their ratio, the time a request gains (1 / req/s with,
 * less 1 / req/s without: the server has one core, so a request's share of it) and the server CPU it gains.
 * @param {Cells} cells
 * @param {{ id: string, label: string, contenders?: string[] }} endpoint
 */
function dependencyTable(cells, { id, label, contenders = [] }) {
  const [withIt, without] = contenders;
  const m = (who, key) => medianOf(cells, id, who, key);
  const added = 1e6 / m(withIt, 'rps') - 1e6 / m(without, 'rps');
  return [
    '| request | without req/s | with req/s | with / without | µs/request added (from req/s) | server CPU µs/req (without, with) | CPU µs/request added | p99 ms (without, with) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| ${label} | ${fmt(m(without, 'rps'), 0)} | ${fmt(m(withIt, 'rps'), 0)} | ${fmt(ratio(m(withIt, 'rps'), m(without, 'rps')))} | ${fmt(added, 1)} | ` +
      `${fmt(m(without, 'cpuUs'), 1)}, ${fmt(m(withIt, 'cpuUs'), 1)} | ${fmt(m(withIt, 'cpuUs') - m(without, 'cpuUs'), 1)} | ${fmt(m(without, 'p99'))}, ${fmt(m(withIt, 'p99'))} |`,
  ].join('\n');
}

/**
 * The whole markdown: `run` (what was run, on what), the JWT table, the dependency's, and what was left out.
 * @param {Cells} cells
 * @param {Array<{ id: string, label: string, contenders?: string[] }>} endpoints those measured
 * @param {Array<{ id: string, reason: string }>} leftOut
 * @param {string} run
 */
function authReport(cells, endpoints, leftOut, run) {
  const jwt = endpoints.filter((e) => e.id !== 'depends');
  const depends = endpoints.find((e) => e.id === 'depends');
  return [
    `${run}; medians\n`,
    ...(jwt.length ? ['## JWT verification\n', jwtTable(cells, jwt), ''] : []),
    ...(depends ? ['## One request-scoped dependency\n', dependencyTable(cells, depends), ''] : []),
    ...leftOut.map(({ id, reason }) => `left out ${id}: ${reason}\n`),
  ].join('\n');
}

module.exports = { authReport, jwtTable, dependencyTable, medianOf };
