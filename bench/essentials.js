#!/usr/bin/env node
'use strict';
// Issue 33's figures, one interleaved run (lib/essentials/contenders.js lists the servers and pairs):
//   overhead     GET /tasks/1 with each feature on against the same trellis app without it: CORS (an allowed Origin
//                on every request), rate limit (memory store, a limit never reached), ETag, compression (a body below
//                the threshold: the cost of deciding); target <= 3 % for CORS and the rate limit. Fastify with
//                @fastify/cors, @fastify/rate-limit and @fastify/compress on against off beside them, for reference;
//   compression  a 20 KB JSON answer, gzip and br: trellis compression() against Fastify with @fastify/compress, each
//                at its default levels and both at equal ones (--gzip-level, --brotli-quality); target >= 1.0;
//   redis        GET /tasks/1 rate-limited in Redis: trellis's redisStore against @fastify/rate-limit's Redis store
//                (ioredis) on the same Redis, each its own key prefix, deleted before each cell;
//   websocket    echo round trips per second: a trellis gateway's @OnMessage('echo') against @fastify/websocket,
//                --connections sockets each sending the next message on receipt (lib/essentials/ws-echo-client.js);
//                then the same behind a JWT (echo-guarded, issue 40; target >= 1.0): a gateway with
//                @Use(jwtAuth({ secret })) and @OnMessage('echo') @Scopes('echo') against @fastify/jwt's jwtVerify in
//                the route's preValidation and the scope checked by hand on each message, the token on every upgrade;
//   idle         --idle idle WebSocket connections: the server's RSS and heap before and after, after a collection.
//
//   node bench/essentials.js [--quick] [--rounds 5] [--seconds 3] [--warmup 1] [--only overhead,compression,redis,websocket,idle]
//                            [--connections 64] [--idle 1000] [--gzip-level 6] [--brotli-quality 4] [--redis URL]
//                            [--cells cors,rate-limit] (measurements by id, within the --only parts)
//
// Every cell is a fresh server pinned to core 0; wrk (64 connections) or the WebSocket client on core 1; --warmup
// seconds of load before the measured ones; the two servers of a pair take turns first. Before measuring, every
// server must answer right (lib/essentials/checks.js: the feature's headers, the decoded body, the key in Redis,
// the echo; the guarded echo's 401 without a token, its refusal without the scope), or its pairs are left out.
// Markdown on stdout, progress on stderr.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeWrkScripts } = require('./lib/endpoints');
const { prepareLoadRun, runMain } = require('./lib/main');
const { positiveInteger } = require('./lib/options');
const { GROUPS, essentialsContenders, essentialsMeasurements } = require('./lib/essentials/contenders');
const { deleteBenchKeys } = require('./lib/essentials/redis');
const { essentialsReport } = require('./lib/essentials/report');
const { bodySizes, checkAll, runRounds } = require('./lib/essentials/run');

const COUNTS = { '--rounds': 'rounds', '--seconds': 'seconds', '--warmup': 'warmup', '--connections': 'connections', '--idle': 'idle' };
const LEVELS = { '--gzip-level': ['gzipLevel', 1, 9], '--brotli-quality': ['brotliQuality', 0, 11] };

function parse(argv) {
  const options = {
    rounds: 5,
    seconds: 3,
    warmup: 1,
    connections: 64,
    idle: 1000,
    gzipLevel: 6,
    brotliQuality: 4,
    only: GROUPS,
    redisUrl: process.env.TRELLIS_BENCH_REDIS_URL || process.env.TRELLIS_TEST_REDIS_URL || 'redis://127.0.0.1:6379',
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') {
      Object.assign(options, { rounds: 1, seconds: 1, warmup: 1 });
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag in COUNTS) options[COUNTS[flag]] = positiveInteger(flag, value);
    else if (flag in LEVELS) {
      const [key, least, most] = LEVELS[flag];
      const n = Number(value);
      if (!(Number.isInteger(n) && n >= least && n <= most)) throw new Error(`${flag} takes a whole number from ${least} to ${most}`);
      options[key] = n;
    } else if (flag === '--redis') options.redisUrl = value;
    else if (flag === '--cells') options.cells = value.split(',');
    else if (flag === '--only') {
      options.only = value.split(',');
      const unknown = options.only.filter((g) => !GROUPS.includes(g));
      if (unknown.length) throw new Error(`unknown part ${unknown.join(', ')} (${GROUPS.join(', ')})`);
    } else throw new Error(`unknown option ${flag} (--quick, ${Object.keys(COUNTS).map((f) => `${f} N`).join(', ')}, --gzip-level N, --brotli-quality N, --redis URL, --only ${GROUPS.join(',')})`);
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  const log = (line) => console.error(line);
  const pin = prepareLoadRun(log);
  const wanted = essentialsMeasurements().filter((m) => options.only.includes(m.group) && (!options.cells || options.cells.includes(m.id)));
  const all = essentialsContenders(options).filter((c) => wanted.some((m) => m.contenders.includes(c.id)));
  const usesRedis = wanted.some((m) => m.group === 'redis');
  if (usesRedis) await deleteBenchKeys(options.redisUrl);
  const { passed, leftOut } = await checkAll(all, pin, log);
  // A measurement is made only on a whole pair: one server alone compares nothing.
  const measured = wanted.filter((m) => m.contenders.every((id) => passed.some((c) => c.id === id)));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-essentials-'));
  try {
    const http = measured.filter((m) => m.kind === 'http');
    const context = {
      pin,
      log,
      settings: { warmupSeconds: options.warmup, measureSeconds: options.seconds, connections: 64, wsConnections: options.connections, idleConnections: options.idle },
      scripts: writeWrkScripts(workDir, http),
      before: async (/** @type {{ group: string }} */ m) => (m.group === 'redis' ? deleteBenchKeys(options.redisUrl) : undefined),
    };
    const bytes = await bodySizes(passed, measured.filter((m) => m.group === 'compression'), pin);
    const cells = /** @type {import('./lib/essentials/report').Cells} */ (await runRounds(passed, measured, { rounds: options.rounds, context, log }));
    const run =
      `${options.rounds} rounds x ${options.seconds} s after ${options.warmup} s of warm-up, a fresh server per cell, wrk 64 connections, ` +
      `${options.connections} WebSocket connections, ${options.idle} idle ones, equal levels gzip ${options.gzipLevel} and brotli ${options.brotliQuality}, pinned: ${pin.pinned}, node ${process.version}`;
    const labels = Object.fromEntries(all.map((c) => [c.id, c.label ?? c.id]));
    console.log(essentialsReport(cells, measured, { run, labels, bytes, leftOut }));
    return leftOut.length ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    if (usesRedis) await deleteBenchKeys(options.redisUrl).catch(() => 0);
  }
}

runMain(main);
