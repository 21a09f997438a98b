'use strict';
// The check before measuring and the rounds of bench/essentials.js: every cell a fresh server, the pair of a
// measurement rotated every cell (as lib/interleaved.js does), wrk for HTTP, ws-cells.js for the WebSocket ones.
const { measureCell } = require('../phases/throughput');
const { startServer } = require('../server');
const { rotate } = require('../stats');
const { fetchAnswer } = require('./answer');
const { measureEcho, measureIdle } = require('./ws-cells');

/** Resolves to the problems of `contender` (its `checks`, on a fresh server); empty when it answers right. */
async function checkContender(contender, pin) {
  let server;
  try {
    // A minute to start: the trellis app compiles through register.js, slow on a busy machine with a cold cache.
    server = await startServer(contender, pin, { readyPath: contender.readyPath, timeoutMs: 60_000 });
  } catch (error) {
    return [String(error instanceof Error ? error.message : error).split('\n').slice(0, 6).join('\n')];
  }
  const problems = [];
  try {
    for (const check of /** @type {import('./checks').Check[]} */ (contender.checks ?? [])) {
      const problem = await check.run(server.port).catch((error) => (error instanceof Error ? error.message : String(error)));
      if (problem) problems.push(`${check.label}: ${problem}`);
    }
  } finally {
    await server.stop();
  }
  return problems;
}

/** Checks every contender; returns `{ passed, leftOut: [{ id, reason }] }`. */
async function checkAll(contenders, pin, log) {
  const passed = [];
  const leftOut = [];
  for (const contender of contenders) {
    log(`checking ${contender.id}`);
    const problems = await checkContender(contender, pin);
    if (problems.length === 0) passed.push(contender);
    else {
      leftOut.push({ id: contender.id, reason: problems.join('; ') });
      log(`  ${contender.id}: left out:\n    ${problems.join('\n    ')}`);
    }
  }
  return { passed, leftOut };
}

/**
 * The size on the wire of each contender's answer to each of `measurements` (one server per contender):
 * `{ [measurementId]: { [contenderId]: bytes } }`, for the compression rows.
 * @param {import('../contenders').Contender[]} contenders
 * @param {import('./contenders').Measurement[]} measurements
 */
async function bodySizes(contenders, measurements, pin) {
  /** @type {Record<string, Record<string, number>>} */
  const sizes = {};
  for (const contender of contenders) {
    const mine = measurements.filter((m) => m.contenders.includes(contender.id));
    if (mine.length === 0) continue;
    const server = await startServer(contender, pin, { readyPath: contender.readyPath });
    try {
      for (const m of mine) (sizes[m.id] ??= {})[contender.id] = (await fetchAnswer(server.port, m)).bytes;
    } finally {
      await server.stop();
    }
  }
  return sizes;
}

const MEASURE = { http: measureCell, echo: measureEcho, idle: measureIdle };

/**
 * Resolves to `{ [measurementId]: { [contenderId]: cell[] } }`. Before each cell, `context.before(measurement)`
 * (the redis pair's keys deleted).
 * @param {import('../contenders').Contender[]} contenders
 * @param {import('./contenders').Measurement[]} measurements
 * @param {{ rounds: number, context: any, log: (line: string) => void }} options
 */
async function runRounds(contenders, measurements, { rounds, context, log }) {
  const cells = {};
  let shift = 0;
  for (let round = 0; round < rounds; round++) {
    for (const measurement of measurements) {
      const pair = contenders.filter((c) => measurement.contenders.includes(c.id));
      for (const contender of rotate(pair, shift++)) {
        await context.before?.(measurement);
        const cell = await MEASURE[measurement.kind](contender, measurement, context);
        ((cells[measurement.id] ??= {})[contender.id] ??= []).push(cell);
        log(`round ${round + 1} ${measurement.id.padEnd(26)} ${contender.id.padEnd(26)} ${describe(measurement, cell)}`);
      }
    }
  }
  return cells;
}

function describe(measurement, cell) {
  if (measurement.kind === 'idle') return `${cell.connections} open: RSS ${cell.rssBeforeMB.toFixed(1)} -> ${cell.rssAfterMB.toFixed(1)} MB, heap ${cell.heapBeforeMB.toFixed(1)} -> ${cell.heapAfterMB.toFixed(1)} MB`;
  const unit = measurement.kind === 'echo' ? 'msg/s' : 'req/s';
  const flags = cell.wrong || cell.socketErrors ? `, ${cell.wrong} wrong, ${cell.socketErrors} socket errors` : '';
  return `${Math.round(cell.rps)} ${unit}, p99 ${cell.p99.toFixed(2)} ms, ${cell.cpuUs.toFixed(1)} µs CPU each${flags}`;
}

module.exports = { checkContender, checkAll, runRounds, bodySizes };
