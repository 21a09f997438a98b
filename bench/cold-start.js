#!/usr/bin/env node
'use strict';
// `npm run bench:cold-start [-- --runs N] [--only a,b]`: the benchmark's cold-start phase alone (spawn to the
// first 200 on GET /tasks/1, interleaved, pinned as in the full run) for Express 5, `trellis run` of the sample
// (by this checkout's CLI, and by the CLI of the package installed from a tarball of it), and `node dist/main.js`
// of the sample built by `trellis build`, or the contenders given. Prints medians and ratios to Express; writes
// nothing. The full run (`npm run bench`) measures the same phase among the others.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildSample } = require('./lib/built-sample');
const { contenders: allContenders } = require('./lib/contenders');
const { pinning, pinSelf } = require('./lib/cpu');
const { installPeers } = require('./lib/install');
const { checkAll } = require('./lib/phases/check');
const { runColdStart } = require('./lib/phases/cold-start');
const { runCreate } = require('./lib/phases/create');
const { FULL } = require('./lib/options');
const { ratio } = require('./lib/stats');

const log = (line) => process.stdout.write(`${line}\n`);

async function main(argv) {
  let runs = FULL.coldStartRuns;
  let only = ['express', 'trellis-run', 'trellis-run-installed', 'trellis-built'];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--only') only = String(argv[++i]).split(',');
    else throw new Error(`unknown option ${argv[i]} (--runs N, --only a,b)`);
  }
  if (!(Number.isInteger(runs) && runs > 0)) throw new Error('--runs needs a positive whole number');
  // The peers' apps need bench/node_modules (bench/package.json); Express and trellis come with trellis.
  if (only.some((id) => ['fastify', 'hono', 'routing-controllers', 'nest'].includes(id))) installPeers(log);
  const pin = pinning();
  pinSelf(pin);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-'));
  try {
    const context = { pin, log, workDir, settings: { ...FULL, createRuns: 1, coldStartRuns: runs } };
    const { sampleDir } = await runCreate(context);
    const built = sampleDir && (only.includes('trellis-built') || only.includes('trellis-run-installed')) ? await buildSample(sampleDir, workDir) : {};
    if (built.error) log(`trellis build failed: ${built.error}`);
    const { passed, leftOut } = await checkAll(allContenders(sampleDir, built.dir).filter((c) => only.includes(c.id)), pin, log);
    for (const { id, reason } of leftOut) log(`left out ${id}: ${reason}`);
    const times = await runColdStart(passed, context);
    const express = times.express?.median;
    log('');
    for (const { id, label } of passed) {
      const t = times[id];
      log(`${label}: median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}, n ${t.n}); x Express ${ratio(t.median, express).toFixed(2)}`);
    }
    return leftOut.length ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exitCode = 1;
  },
);
