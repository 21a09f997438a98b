'use strict';
// Rounds of fresh-server cells over contenders and endpoints, the contenders' order rotated every cell, so that
// a noisy stretch of the machine falls on all of them alike (ab.js, vs-fastify.js).
const { measureCell } = require('./phases/throughput');
const { rotate } = require('./stats');

/**
 * Resolves to `{ [endpointId]: { [contenderId]: cell[] } }` (cells as `measureCell` gives them), logging each
 * cell through `log`. An endpoint with `contenders` (ids) is measured on those alone.
 * @param {import('./contenders').Contender[]} contenders
 * @param {Array<{ id: string, label: string, contenders?: string[] }>} endpoints
 * @param {{ rounds: number, context: object, log: (line: string) => void }} options
 */
async function runInterleaved(contenders, endpoints, { rounds, context, log }) {
  const cells = {};
  let shift = 0;
  for (let round = 0; round < rounds; round++) {
    for (const endpoint of endpoints) {
      const serving = endpoint.contenders ? contenders.filter((c) => endpoint.contenders?.includes(c.id)) : contenders;
      for (const c of rotate(serving, shift++)) {
        const cell = await measureCell(c, endpoint, context);
        ((cells[endpoint.id] ??= {})[c.id] ??= []).push(cell);
        log(`round ${round + 1} ${endpoint.label.padEnd(22)} ${c.id} ${Math.round(cell.rps)} req/s, ` +
          `p99 ${cell.p99.toFixed(2)} ms, ${cell.cpuUs.toFixed(1)} µs CPU/req` + (cell.wrong ? `, ${cell.wrong} wrong status` : ''));
      }
    }
  }
  return cells;
}

module.exports = { runInterleaved };
