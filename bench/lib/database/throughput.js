'use strict';
// GET /tasks/1 and POST /tasks on the database contenders: first a check that each answers correctly and that the
// two of a pair answer alike (same body for the task read and for the first task created), then interleaved rounds
// of fresh-server cells (../interleaved.js's order: contenders rotated every cell), each on a fresh database.
const { isDeepStrictEqual } = require('node:util');
const { ENDPOINTS } = require('../endpoints');
const { request } = require('../http-get');
const { measureCell } = require('../phases/throughput');
const { startServer } = require('../server');
const { rotate } = require('../stats');

const DB_ENDPOINTS = ENDPOINTS.filter((e) => e.id === 'get-task' || e.id === 'post-task');

/**
 * Starts each contender on a fresh database and sends it the endpoints once; resolves to `{ passed, leftOut }`.
 * A pair whose answers differ is left out whole: its figures would compare different work.
 * @param {import('./contenders').DbContender[]} contenders
 * @param {Array<[string, string]>} pairs
 */
async function checkDb(contenders, pairs, pin, log) {
  /** @type {Record<string, Record<string, unknown>>} */
  const answers = {};
  /** @type {Array<{ id: string, reason: string }>} */
  const leftOut = [];
  for (const contender of contenders) {
    const problems = [];
    try {
      await contender.fresh();
      const server = await startServer(contender, pin);
      try {
        for (const endpoint of DB_ENDPOINTS) {
          const answer = await request(server.port, endpoint);
          const ok = endpoint.status.includes(answer.status) && answer.json !== undefined && endpoint.check(answer.json);
          if (!ok) problems.push(`${endpoint.label}: got ${answer.status} ${answer.text.slice(0, 200)}`);
          (answers[contender.id] ??= {})[endpoint.id] = answer.json;
        }
      } finally {
        await server.stop();
      }
    } catch (error) {
      problems.push(String(error instanceof Error ? error.message : error).split('\n').slice(0, 6).join(' '));
    }
    if (problems.length) leftOut.push({ id: contender.id, reason: problems.join('; ') });
  }
  for (const [a, b] of pairs) {
    if (leftOut.some((l) => l.id === a || l.id === b)) continue;
    for (const endpoint of DB_ENDPOINTS) {
      const [x, y] = [answers[a]?.[endpoint.id], answers[b]?.[endpoint.id]];
      if (!isDeepStrictEqual(x, y)) leftOut.push({ id: b, reason: `${endpoint.label} differs from ${a}: ${JSON.stringify(y)} against ${JSON.stringify(x)}` });
    }
  }
  for (const { id, reason } of leftOut) log(`left out ${id}: ${reason}`);
  return { passed: contenders.filter((c) => !leftOut.some((l) => l.id === c.id)), leftOut };
}

/**
 * Resolves to `{ [endpointId]: { [contenderId]: cell[] } }` (cells as `measureCell` gives them); every cell starts
 * a fresh server on a fresh database.
 * @param {import('./contenders').DbContender[]} contenders
 * @param {{ rounds: number, context: object, log: (line: string) => void }} options
 */
async function runDbThroughput(contenders, { rounds, context, log }) {
  /** @type {Record<string, Record<string, any[]>>} */
  const cells = {};
  let shift = 0;
  for (let round = 0; round < rounds; round++) {
    for (const endpoint of DB_ENDPOINTS) {
      for (const c of rotate(contenders, shift++)) {
        await c.fresh();
        const cell = await measureCell(c, endpoint, context);
        ((cells[endpoint.id] ??= {})[c.id] ??= []).push(cell);
        log(`round ${round + 1} ${endpoint.label.padEnd(13)} ${c.id.padEnd(17)} ${Math.round(cell.rps)} req/s, ` +
          `p99 ${cell.p99.toFixed(2)} ms, ${cell.cpuUs.toFixed(1)} µs CPU/req` + (cell.wrong || cell.socketErrors ? `, ${cell.wrong} wrong status, ${cell.socketErrors} socket errors` : ''));
      }
    }
  }
  return cells;
}

module.exports = { checkDb, runDbThroughput, DB_ENDPOINTS };
