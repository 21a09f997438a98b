#!/usr/bin/env node
'use strict';
// The database figures of issue 31, one interleaved run:
//   throughput  GET /tasks/1 and POST /tasks of the built `trellis create --db` sample (access log on) against
//               Fastify with request logging on through the same driver, pool size and Kysely queries
//               (apps/fastify-db), on the embedded PGlite and on PostgreSQL: trellis / Fastify req/s, target >= 1.0;
//   starts      spawn to the first 200 of `npm run dev` and of `node dist/main.js`, --db sample against the in-memory
//               one: the difference, target under 300 ms;
//   install     node_modules of `npm install --omit=dev` of each sample: what --db adds.
//
//   node bench/database.js [--quick] [--rounds 5] [--seconds 3] [--warmup 5] [--runs 10]
//                          [--phases throughput,starts,install] [--built DIR]
//
// The samples are created, packed, installed and built once (~3 min) into a folder printed at the start; --built DIR
// reuses it. The warm-up is 5 s by default (vs-fastify.js: 1 s): PGlite is WebAssembly, compiled in tiers, and on this
// machine a fresh process served GET /tasks/1 about half as fast in its first 4 s as after. Every server start gets a fresh database (a copy of one migrated with the sample's migrations): a PGlite
// folder, or a database the run creates on TRELLIS_BENCH_DATABASE_URL (default
// postgres://trellis:trellis@127.0.0.1:5432/trellis) and drops at the end. Markdown on stdout, progress on stderr.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinning, pinSelf } = require('./lib/cpu');
const { writeWrkScripts } = require('./lib/endpoints');
const { installPeers } = require('./lib/install');
const { runMain } = require('./lib/main');
const { FULL, positiveInteger } = require('./lib/options');
const { assertWrk } = require('./lib/wrk');
const { ADDED, runStarts, startContenders } = require('./lib/database/cold-start');
const { DB_PAIRS, dbContenders } = require('./lib/database/contenders');
const { migratedPglite, migratedPostgres } = require('./lib/database/fresh');
const { productionInstall } = require('./lib/database/install-size');
const { describeUrl, serverDatabases, SERVER_URL } = require('./lib/database/postgres');
const { installTable, startsTable, throughputTable } = require('./lib/database/report');
const { builtSamples, sampleDatabase } = require('./lib/database/samples');
const { checkDb, DB_ENDPOINTS, runDbThroughput } = require('./lib/database/throughput');

const PHASES = ['throughput', 'starts', 'install'];

function parse(argv) {
  const options = { rounds: 5, seconds: 3, warmup: 5, runs: FULL.coldStartRuns, phases: PHASES, built: /** @type {string | undefined} */ (undefined) };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') {
      Object.assign(options, { rounds: 1, seconds: 1, warmup: 1, runs: 2 });
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (['--rounds', '--seconds', '--warmup', '--runs'].includes(flag)) {
      options[/** @type {'rounds'} */ (flag.slice(2))] = positiveInteger(flag, value);
    } else if (flag === '--phases') {
      options.phases = value.split(',');
      const unknown = options.phases.filter((p) => !PHASES.includes(p));
      if (unknown.length) throw new Error(`unknown phase ${unknown.join(', ')} (${PHASES.join(', ')})`);
    } else if (flag === '--built') options.built = path.resolve(value);
    else throw new Error(`unknown option ${flag} (--quick, --rounds N, --seconds S, --warmup S, --runs N, --phases ${PHASES.join(',')}, --built DIR)`);
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  const log = (line) => console.error(line);
  if (options.phases.includes('throughput')) assertWrk();
  installPeers(log);
  const pin = pinning();
  pinSelf(pin);
  const samplesDir = options.built ?? fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-db-samples-'));
  log(`samples: ${samplesDir} (reuse them with --built)`);
  const samples = await builtSamples(samplesDir, log);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-db-'));
  const databases = serverDatabases();
  const { pool, dataDir } = sampleDatabase(samples.db);
  const out = [`node ${process.version}, pinned: ${pin.pinned}, PostgreSQL at ${describeUrl(SERVER_URL)} (not pinned)\n`];
  let leftOutCount = 0;
  try {
    const pgliteTemplate = path.join(workDir, 'pglite-template', 'db');
    log(`migrated PGlite template: ${(await migratedPglite(samples.db, pgliteTemplate)).join(', ')}`);
    log(`migrated PostgreSQL template: ${(await migratedPostgres(samples.db, await databases.create('template'))).join(', ')}`);

    if (options.phases.includes('throughput')) {
      const context = {
        pin,
        log,
        workDir,
        settings: { ...FULL, warmupSeconds: options.warmup, measureSeconds: options.seconds, connections: 64 },
        scripts: writeWrkScripts(workDir),
      };
      const all = dbContenders({ builtDir: samples.db, dataDir, workDir, pool, pgliteTemplate, databases });
      const { passed, leftOut } = await checkDb(all, DB_PAIRS, pin, log);
      leftOutCount += leftOut.length;
      const cells = await runDbThroughput(passed, { rounds: options.rounds, context, log });
      out.push(`## Throughput\n\n${options.rounds} rounds x ${options.seconds} s after ${options.warmup} s of warm-up, 64 connections, a fresh server and database per cell, pool ${pool}; medians\n`);
      out.push(throughputTable(cells, DB_PAIRS, DB_ENDPOINTS, all), '');
      for (const { id, reason } of leftOut) out.push(`left out ${id}: ${reason}`, '');
    }
    if (options.phases.includes('starts')) {
      const contenders = startContenders({ memoryDir: samples.memory, dbDir: samples.db, dataDir, pgliteTemplate, databases });
      const { times, leftOut } = await runStarts(contenders, { pin, runs: options.runs, log });
      leftOutCount += leftOut.length;
      out.push(`## Cold start\n\nspawn to the first 200 on GET /tasks/1, ${options.runs} starts each, interleaved\n`, startsTable(times, contenders, ADDED), '');
      for (const { id, reason } of leftOut) out.push(`left out ${id}: ${reason}`, '');
    }
    if (options.phases.includes('install')) {
      log('npm install --omit=dev of each sample');
      const sizes = { memory: await productionInstall(samples.memory, workDir, 'install-memory'), db: await productionInstall(samples.db, workDir, 'install-db') };
      out.push('## Production install\n', installTable(sizes), '');
    }
    console.log(out.join('\n'));
    return leftOutCount ? 1 : 0;
  } finally {
    await databases.dropAll();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

runMain(main);
