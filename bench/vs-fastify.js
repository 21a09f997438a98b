#!/usr/bin/env node
'use strict';
// trellis against Fastify in one interleaved run (issue 15's targets): the minimal apps (`trellis` against
// `fastify`) and the sample as users run it (`trellis-built`: `node dist/main.js` with its access log on) against
// Fastify with its own request logging on (`fastify-logged`), with raw node:http as the ceiling; and, like for like,
// the minimal app against Fastify sending the two headers every trellis response carries (`fastify-headers`).
//
//   node bench/vs-fastify.js [--rounds 3] [--seconds 3] [--warmup 1] [--only raw,fastify,trellis] [--built DIR]
//
// --built DIR reuses a sample already built by a previous run (printed at the start; bench/lib/built-sample.js
// makes one: create, pack, install, build, ~2 min). Each cell is a fresh server pinned to core 0, wrk on core 1,
// --warmup seconds of load before the measured ones (1 by default; the JIT is still compiling both frameworks in
// the first seconds), contenders rotated every cell (lib/interleaved.js). Prints medians as a markdown table.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildSample } = require('./lib/built-sample');
const { contenders: allContenders } = require('./lib/contenders');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { prepareLoadRun, runMain } = require('./lib/main');
const { runInterleaved } = require('./lib/interleaved');
const { checkAll } = require('./lib/phases/check');
const { runCreate } = require('./lib/phases/create');
const { FULL } = require('./lib/options');
const { pairTable } = require('./lib/report/pairs');

const PAIRS = [
  ['trellis', 'fastify'],
  ['trellis-built', 'fastify-logged'],
  ['trellis', 'fastify-headers'],
];

function parse(argv) {
  const options = { rounds: 3, seconds: 3, warmup: 1, only: ['raw', 'fastify', 'trellis', 'fastify-logged', 'trellis-built', 'fastify-headers'], built: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--rounds' || flag === '--seconds' || flag === '--warmup') options[flag.slice(2)] = Number(value);
    else if (flag === '--only') options.only = value.split(',');
    else if (flag === '--built') options.built = path.resolve(value);
    else throw new Error(`unknown option ${flag} (--rounds N, --seconds S, --warmup S, --only ids, --built DIR)`);
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  const log = (line) => console.error(line);
  const pin = prepareLoadRun(log);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-vs-fastify-'));
  const context = {
    pin,
    log,
    workDir,
    settings: { ...FULL, createRuns: 1, warmupSeconds: options.warmup, measureSeconds: options.seconds, connections: 64 },
    scripts: writeWrkScripts(workDir),
  };
  let builtDir = options.built;
  if (!builtDir && options.only.includes('trellis-built')) {
    const { sampleDir } = await runCreate(context);
    const built = sampleDir ? await buildSample(sampleDir, fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-built-'))) : { error: 'trellis create failed' };
    if (built.error) throw new Error(`trellis build failed: ${built.error}`);
    builtDir = built.dir;
    log(`built sample: ${builtDir} (reuse it with --built)`);
  }
  try {
    const { passed, leftOut } = await checkAll(allContenders(undefined, builtDir).filter((c) => options.only.includes(c.id)), pin, log);
    for (const { id, reason } of leftOut) log(`left out ${id}: ${reason}`);
    const cells = await runInterleaved(passed, ENDPOINTS, { rounds: options.rounds, context, log });
    console.log(`${options.rounds} rounds x ${options.seconds} s after ${options.warmup} s of warm-up, 64 connections, pinned: ${pin.pinned}, node ${process.version}; medians\n`);
    console.log(pairTable(cells, passed, PAIRS, ENDPOINTS));
    return leftOut.length ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

runMain(main);
