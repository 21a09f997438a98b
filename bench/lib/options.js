'use strict';
// Command-line options of `npm run bench` and the settings of a full run and of a `--quick` smoke run.
const path = require('node:path');

const FULL = {
  repetitions: 5,
  warmupSeconds: 1,
  measureSeconds: 3,
  connections: 64,
  coldStartRuns: 10,
  overheadRepetitions: 10,
  memoryRequests: 100_000,
  routeCounts: [10, 100, 1000],
  createRuns: 5,
};

const QUICK = {
  repetitions: 1,
  warmupSeconds: 1,
  measureSeconds: 1,
  connections: 64,
  coldStartRuns: 2,
  overheadRepetitions: 2,
  memoryRequests: 10_000,
  routeCounts: [10, 1000],
  createRuns: 1,
};

const USAGE = `Usage: npm run bench -- [--quick] [--only a,b] [--out DIR]

  --quick     smoke run: 1 repetition of 1 s per cell, few cold starts; written to bench/.quick/
  --only      contenders to run, by id (raw, express, fastify, hono, routing-controllers,
              nest, trellis, trellis-sample, trellis-run, trellis-run-quiet, trellis-built,
              fastify-logged, fastify-headers)
  --out DIR   where RESULTS.md, results.json and results.svg go (default bench/, or bench/.quick/ with --quick)`;

/** Parses argv; throws an Error with a one-line message for an unknown flag. */
function parseOptions(argv) {
  /** @type {{ quick: boolean, only: string[] | undefined, out: string | undefined, help: boolean }} */
  const options = { quick: false, only: undefined, out: undefined, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--only' || arg === '--out') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) throw new Error(`${arg} needs a value`);
      if (arg === '--only') options.only = value.split(',').map((s) => s.trim()).filter(Boolean);
      else options.out = path.resolve(value);
    } else throw new Error(`unknown option ${arg} (see --help)`);
  }
  const benchDir = path.resolve(__dirname, '..');
  const out = options.out ?? (options.quick ? path.join(benchDir, '.quick') : benchDir);
  return { ...options, out, settings: options.quick ? QUICK : FULL };
}

/** `value` of `flag` as a positive whole number, or a one-line error naming the flag (the entry scripts' counts). */
function positiveInteger(flag, value) {
  const n = Number(value);
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`${flag} needs a positive whole number`);
  return n;
}

module.exports = { parseOptions, positiveInteger, USAGE, FULL, QUICK };
