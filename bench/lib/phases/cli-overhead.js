'use strict';
// What `trellis run` adds per request: the sample served without the CLI, by `trellis run`, and by
// `trellis run --no-access-log`, on GET /tasks/1 and POST /tasks, with more repetitions than the main matrix
// (the effect is a few per cent; two identical processes differ by up to 15 % in one cell here), interleaved.
const { ENDPOINTS } = require('../endpoints');
const { summarize, rotate } = require('../stats');
const { measureCell } = require('./throughput');

const IDS = ['trellis-sample', 'trellis-run', 'trellis-run-quiet'];
const ENDPOINT_IDS = ['get-task', 'post-task'];

/** Resolves to `{ [endpointId]: { [contenderId]: { rps, cpuUs } } }`, or undefined without the three contenders. */
async function runCliOverhead(contenders, context) {
  const { settings, log } = context;
  const measured = IDS.map((id) => contenders.find((c) => c.id === id));
  if (measured.some((c) => c === undefined)) return undefined;
  const cells = {};
  let shift = 0;
  for (let rep = 0; rep < settings.overheadRepetitions; rep++) {
    for (const endpoint of ENDPOINTS.filter((e) => ENDPOINT_IDS.includes(e.id))) {
      for (const contender of rotate(measured, shift++)) {
        const cell = await measureCell(contender, endpoint, context);
        ((cells[endpoint.id] ??= {})[contender.id] ??= []).push(cell);
      }
      const line = measured.map((c) => `${c.id} ${cells[endpoint.id][c.id].at(-1).cpuUs.toFixed(1)} µs`).join(', ');
      log(`  rep ${rep + 1} ${endpoint.label.padEnd(14)} ${line}`);
    }
  }
  const out = {};
  for (const [endpoint, byContender] of Object.entries(cells)) {
    out[endpoint] = {};
    for (const [id, list] of Object.entries(byContender)) {
      out[endpoint][id] = { rps: summarize(list.map((c) => c.rps)), cpuUs: summarize(list.map((c) => c.cpuUs)) };
    }
  }
  return out;
}

module.exports = { runCliOverhead, CLI_OVERHEAD_ENDPOINTS: ENDPOINT_IDS };
