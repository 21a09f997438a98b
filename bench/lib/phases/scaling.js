'use strict';
// Route-count scaling: trellis with 10, 100 and 1,000 generated routes; GET throughput and p99 of a
// route in the middle of the table, interleaved over the route counts.
const path = require('node:path');
const { generateRoutes } = require('../generate-routes');
const { startServer } = require('../server');
const { summarize, rotate } = require('../stats');
const { runWrk } = require('../wrk');

/** Resolves to `{ [count]: { path, rps, p99 } }` (summaries over repetitions). */
async function runScaling({ pin, settings, workDir, log }) {
  const variants = settings.routeCounts.map((count) => {
    const dir = path.join(workDir, `routes-${count}`);
    const middle = generateRoutes(dir, count);
    return {
      count,
      middle,
      contender: {
        id: `trellis-${count}-routes`,
        command: () => [process.execPath, '-r', './register.js', path.join('bench', 'apps', 'trellis-routes.ts')],
        env: { ROUTES_DIR: dir },
      },
    };
  });
  const cells = {};
  for (let rep = 0; rep < settings.repetitions; rep++) {
    for (const variant of rotate(variants, rep)) {
      const server = await startServer(variant.contender, pin, { readyPath: variant.middle });
      try {
        const run = { port: server.port, path: variant.middle, connections: settings.connections };
        await runWrk(pin, { ...run, seconds: settings.warmupSeconds });
        const result = await runWrk(pin, { ...run, seconds: settings.measureSeconds });
        if (result.non2xx || result.socketErrors) throw new Error(`${variant.contender.id}: ${result.non2xx} non-2xx answers`);
        (cells[variant.count] ??= []).push(result);
        log(`  rep ${rep + 1} ${String(variant.count).padStart(5)} routes  GET ${variant.middle}  ${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s  p99 ${result.p99.toFixed(1)} ms`);
      } finally {
        await server.stop();
      }
    }
  }
  return Object.fromEntries(
    variants.map((v) => [
      v.count,
      { path: v.middle, rps: summarize(cells[v.count].map((r) => r.requestsPerSecond)), p99: summarize(cells[v.count].map((r) => r.p99)) },
    ]),
  );
}

module.exports = { runScaling };
