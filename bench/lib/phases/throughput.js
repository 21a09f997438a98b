'use strict';
// The main matrix: contenders x endpoints x repetitions, each cell a fresh server process, warmed up
// and then measured with wrk. Contenders are interleaved (and rotated every cell) so machine drift
// spreads over all of them.
const { ENDPOINTS } = require('../endpoints');
const { cpuSecondsOf, memoryOf } = require('../proc');
const { startServer } = require('../server');
const { summarize, rotate } = require('../stats');
const { runWrk } = require('../wrk');

/** One measured cell: `{ rps, p50, p99, cpuUs (server CPU per request), peakMB, wrong, socketErrors }`. */
async function measureCell(contender, endpoint, context) {
  const { pin, settings, scripts } = context;
  const server = await startServer(contender, pin, { readyPath: contender.readyPath });
  try {
    const run = { port: server.port, script: scripts[endpoint.id], connections: settings.connections };
    await runWrk(pin, { ...run, seconds: settings.warmupSeconds });
    const cpuBefore = cpuSecondsOf(server.pid);
    const result = await runWrk(pin, { ...run, seconds: settings.measureSeconds });
    const cpuSeconds = cpuSecondsOf(server.pid) - cpuBefore;
    const expectsError = endpoint.status[0] >= 400;
    // Responses with a status other than the expected class (2xx for valid requests, 4xx for the invalid body).
    const wrong = expectsError ? result.requests - result.non2xx : result.non2xx;
    return {
      rps: result.requestsPerSecond,
      p50: result.p50,
      p99: result.p99,
      cpuUs: (cpuSeconds * 1e6) / result.requests,
      peakMB: memoryOf(server.pid).peakMB,
      wrong,
      socketErrors: result.socketErrors,
    };
  } finally {
    await server.stop();
  }
}

/** Runs the matrix; resolves to `{ [contenderId]: { [endpointId]: summary } }`. */
async function runThroughput(contenders, context) {
  const { settings, log } = context;
  const raw = {};
  const total = settings.repetitions * ENDPOINTS.length * contenders.length;
  let done = 0;
  let shift = 0;
  for (let rep = 0; rep < settings.repetitions; rep++) {
    for (const endpoint of ENDPOINTS) {
      for (const contender of rotate(contenders, shift++)) {
        const cell = await measureCell(contender, endpoint, context);
        ((raw[contender.id] ??= {})[endpoint.id] ??= []).push(cell);
        done++;
        const flag = cell.wrong || cell.socketErrors ? `  (${cell.wrong} wrong status, ${cell.socketErrors} socket errors)` : '';
        log(
          `  [${String(done).padStart(3)}/${total}] ${endpoint.label.padEnd(22)} ${contender.id.padEnd(20)}` +
            ` ${Math.round(cell.rps).toLocaleString('en-US').padStart(7)} req/s  p99 ${cell.p99.toFixed(1).padStart(5)} ms  ${cell.cpuUs.toFixed(0).padStart(4)} µs CPU/req${flag}`,
        );
      }
    }
  }
  return summarizeCells(raw);
}

function summarizeCells(raw) {
  const out = {};
  for (const [id, byEndpoint] of Object.entries(raw)) {
    out[id] = {};
    for (const [endpointId, cells] of Object.entries(byEndpoint)) {
      out[id][endpointId] = {
        rps: summarize(cells.map((c) => c.rps)),
        p50: summarize(cells.map((c) => c.p50)),
        p99: summarize(cells.map((c) => c.p99)),
        cpuUs: summarize(cells.map((c) => c.cpuUs)),
        peakMB: summarize(cells.map((c) => c.peakMB)),
        wrong: cells.reduce((sum, c) => sum + c.wrong, 0),
        socketErrors: cells.reduce((sum, c) => sum + c.socketErrors, 0),
        samples: cells.map((c) => Math.round(c.rps)),
      };
    }
  }
  return out;
}

module.exports = { runThroughput, measureCell };
