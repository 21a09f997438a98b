'use strict';
// What the validation micro-benchmarks share: CPU time per body and their numeric options.

/**
 * CPU ns per body of `iterations` sequential runs, each awaited as the body extractor awaits it (CPU time of the
 * process, GC included, rather than wall time: other work on the core does not count).
 */
async function time(run, body, iterations) {
  const extract = async (details) => run(body, details);
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await extract([]);
  const { user, system } = process.cpuUsage(started);
  return ((user + system) * 1000) / iterations;
}

/** The number after `name` on the command line, or `fallback`. */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

module.exports = { time, option };
