#!/usr/bin/env node
'use strict';
// Issue 32's figures, one interleaved run:
//   jwt      GET /tasks/1 with a bearer token behind trellis's jwtAuth against Fastify 5 with @fastify/jwt (the same
//            key, one algorithm allowed, issuer and audience checked, the same body), with an HS256 token and with
//            an RS256 one: trellis / Fastify by req/s, target >= 1.0;
//   depends  trellis's GET /tasks/1 through one request-scoped dependency (@Injectable({ scope: 'request' }),
//            @Depends()) against the same through a singleton: the ratio and the µs a request gains.
//
//   node bench/auth.js [--quick] [--rounds 5] [--seconds 3] [--warmup 1] [--only jwt,depends] [--cache off|on]
//
// The keys (an HS256 secret, an RS256 key pair) and the tokens are made once per run with jose; wrk sends the same
// token on every request. With --cache off (the default) neither side keeps the tokens it verified (trellis's
// jwtAuth({ cache: false }), @fastify/jwt's verify.cache off), so every request verifies its token: the uncached
// path, as if each request brought a fresh token. --cache on measures both caches. Every cell is a fresh server pinned to core 0, wrk (64 connections) on core 1, --warmup
// seconds of load before the measured ones, the contenders of a request rotated every cell (lib/interleaved.js).
// Before measuring, each JWT app must answer the task to the token and 401 to none and to each token it must refuse
// (lib/auth/tokens.js), or its pair is left out. Markdown on stdout, progress on stderr.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeWrkScripts } = require('./lib/endpoints');
const { prepareLoadRun, runMain } = require('./lib/main');
const { runInterleaved } = require('./lib/interleaved');
const { checkAll } = require('./lib/phases/check');
const { FULL, positiveInteger } = require('./lib/options');
const { ALGORITHMS, authContenders, authEndpoints } = require('./lib/auth/contenders');
const { authReport } = require('./lib/auth/report');
const { authKeys, runTokens } = require('./lib/auth/tokens');

const GROUPS = ['jwt', 'depends'];

function parse(argv) {
  const options = { rounds: 5, seconds: 3, warmup: 1, only: GROUPS, cache: 'off' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') {
      Object.assign(options, { rounds: 1, seconds: 1, warmup: 1 });
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (['--rounds', '--seconds', '--warmup'].includes(flag)) {
      options[/** @type {'rounds'} */ (flag.slice(2))] = positiveInteger(flag, value);
    } else if (flag === '--cache') {
      if (!['on', 'off'].includes(value)) throw new Error(`--cache takes on or off, not ${value}`);
      options.cache = value;
    } else if (flag === '--only') {
      options.only = value.split(',');
      const unknown = options.only.filter((g) => !GROUPS.includes(g));
      if (unknown.length) throw new Error(`unknown part ${unknown.join(', ')} (${GROUPS.join(', ')})`);
    } else throw new Error(`unknown option ${flag} (--quick, --rounds N, --seconds S, --warmup S, --only ${GROUPS.join(',')}, --cache off|on)`);
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  process.env.JWT_CACHE = options.cache; // the servers inherit it (apps/auth/config.js)
  const log = (line) => console.error(line);
  const pin = prepareLoadRun(log);
  const keys = await authKeys();
  const { tokens, refused } = await runTokens(keys, ALGORITHMS);
  const wanted = authEndpoints(tokens).filter((e) => options.only.includes(e.group));
  const all = authContenders(keys, tokens, refused).filter((c) => wanted.some((e) => e.contenders.includes(c.id)));
  const { passed, leftOut } = await checkAll(all, pin, log);
  // A request is measured only on a whole pair: one contender alone compares nothing.
  const endpoints = wanted.filter((e) => e.contenders.every((id) => passed.some((c) => c.id === id)));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-bench-auth-'));
  try {
    const context = {
      pin,
      log,
      workDir,
      settings: { ...FULL, warmupSeconds: options.warmup, measureSeconds: options.seconds, connections: 64 },
      scripts: writeWrkScripts(workDir, endpoints),
    };
    const cells = /** @type {import('./lib/auth/report').Cells} */ (await runInterleaved(passed, endpoints, { rounds: options.rounds, context, log }));
    const run = `${options.rounds} rounds x ${options.seconds} s after ${options.warmup} s of warm-up, 64 connections, a fresh server per cell, verified-token caches ${options.cache}, pinned: ${pin.pinned}, node ${process.version}`;
    console.log(authReport(cells, endpoints, leftOut, run));
    return leftOut.length ? 1 : 0;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

runMain(main);
