'use strict';
// Cold start: from spawning the process to its first 200 on GET /tasks/1, interleaved over contenders.
const { startServer } = require('../server');
const { summarize, rotate } = require('../stats');

/** Resolves to `{ [contenderId]: summary of ms }`. */
async function runColdStart(contenders, { pin, settings, log }) {
  const times = {};
  for (let run = 0; run < settings.coldStartRuns; run++) {
    for (const contender of rotate(contenders, run)) {
      const server = await startServer(contender, pin);
      await server.stop();
      (times[contender.id] ??= []).push(server.coldStartMs);
    }
    log(`  run ${run + 1}/${settings.coldStartRuns}: ${contenders.map((c) => `${c.id} ${Math.round(times[c.id].at(-1))} ms`).join(', ')}`);
  }
  return Object.fromEntries(Object.entries(times).map(([id, list]) => [id, summarize(list)]));
}

module.exports = { runColdStart };
