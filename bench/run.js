#!/usr/bin/env node
'use strict';
// `npm run bench`: trellis against its peers in one interleaved run. Writes RESULTS.md, results.json and
// results.svg (to bench/, or bench/.quick/ with --quick). See bench/README.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildSample } = require('./lib/built-sample');
const { contenders: allContenders } = require('./lib/contenders');
const { pinning, pinSelf, machine } = require('./lib/cpu');
const { writeWrkScripts, writeMixScript } = require('./lib/endpoints');
const { parseOptions, USAGE } = require('./lib/options');
const { assertWrk } = require('./lib/wrk');
const { installPeers } = require('./lib/install');
const { checkAll } = require('./lib/phases/check');
const { runColdStart } = require('./lib/phases/cold-start');
const { runCreate } = require('./lib/phases/create');
const { runMemory } = require('./lib/phases/memory');
const { runCliOverhead } = require('./lib/phases/cli-overhead');
const { runScaling } = require('./lib/phases/scaling');
const { runThroughput } = require('./lib/phases/throughput');
const { renderChart } = require('./lib/report/chart');
const { renderMarkdown } = require('./lib/report/markdown');
const { evaluateTargets } = require('./lib/report/targets');

const log = (line) => process.stdout.write(`${line}\n`);

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    log(USAGE);
    return 0;
  }
  const { settings } = options;
  assertWrk();
  installPeers(log);
  const pin = pinning();
  pinSelf(pin);
  const started = Date.now();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-'));
  try {
    const context = { pin, settings, log, workDir, scripts: writeWrkScripts(workDir), mixScripts: {
        warmup: writeMixScript(workDir, settings.memoryRequests / 2),
        chunk: writeMixScript(workDir, settings.memoryRequests / 10),
      },
    };
    const wanted = (id) => !options.only || options.only.includes(id);

    log('trellis create');
    const sampled = ['trellis-sample', 'trellis-run', 'trellis-run-quiet', 'trellis-built'];
    const { create, sampleDir } = sampled.some(wanted) ? await runCreate(context) : { create: undefined, sampleDir: undefined };
    const leftOut = create?.error ? sampled.filter(wanted).map((id) => ({ id, reason: `trellis create failed: ${create.error}` })) : [];
    let builtDir;
    if (sampleDir && wanted('trellis-built')) {
      log('trellis build (the sample, for node dist/main.js)');
      const built = await buildSample(sampleDir, workDir);
      if (built.error) leftOut.push({ id: 'trellis-built', reason: `trellis build failed: ${built.error}` });
      builtDir = built.dir;
    }

    log('checking answers');
    const checked = await checkAll(allContenders(sampleDir, builtDir).filter((c) => wanted(c.id)), pin, log);
    leftOut.push(...checked.leftOut);
    const everyContender = checked.passed;
    const contenders = everyContender;
    if (everyContender.length === 0) throw new Error('no contender answers correctly');

    log(`throughput: ${contenders.length} contenders x 4 endpoints x ${settings.repetitions} repetitions`);
    const throughput = await runThroughput(contenders, context);
    log(`what trellis run adds per request: ${settings.overheadRepetitions} repetitions`);
    const cliOverhead = await runCliOverhead(contenders, context);
    log('cold start');
    const coldStart = await runColdStart(everyContender, context);
    log('route-count scaling');
    const scaling = wanted('trellis') ? await runScaling(context) : undefined;
    log(`memory (${settings.memoryRequests.toLocaleString('en-US')} requests)`);
    const memory = await runMemory(contenders, context);

    const results = {
      date: new Date().toISOString(),
      quick: options.quick,
      durationSeconds: (Date.now() - started) / 1000,
      settings,
      machine: machine(pin),
      contenders: everyContender.map(({ id, label, note }) => ({ id, label, note })),
      leftOut,
      throughput,
      cliOverhead,
      coldStart,
      scaling,
      memory,
      create,
    };
    write(options.out, results);
    log('');
    for (const t of evaluateTargets(results)) log(`${t.met === null ? '  n/a ' : t.met ? '  met ' : 'MISSED'} ${t.figure}: ${t.measured} (target ${t.target})${t.byCpu ? `; by CPU/req ${t.byCpu}` : ''}`);
    log(`\nwritten: ${path.relative(process.cwd(), path.join(options.out, 'RESULTS.md'))} (${Math.round(results.durationSeconds)} s)`);
    return leftOut.length ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function write(dir, results) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'RESULTS.md'), renderMarkdown(results));
  fs.writeFileSync(path.join(dir, 'results.svg'), renderChart(results));
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exitCode = 1;
  },
);
