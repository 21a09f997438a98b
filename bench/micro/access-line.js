#!/usr/bin/env node
'use strict';
// The access line of `trellis run` in one process, per line: as trellis built it by hand before pino (the template
// below, copied from runtime/run-log.ts as it was), as pino builds it now (RunLog.access), and pino over its own
// asynchronous destination (sonic-boom) instead of the BatchedDestination. Everything else an access-logged request
// does (runtime/access-log.ts) is the same code either way, so the difference per line is the difference per request.
// Blocks of 20,000 lines, the variants interleaved, 25 ms between blocks for the batches to be written (to /dev/null).
//
//   taskset -c 0 node bench/micro/access-line.js [rounds, default 60]
require('../../register.js');
const fs = require('node:fs');
const pino = require('pino');
const { createLogger } = require('../../framework/logger');
const { BatchedDestination } = require('../../runtime/log-destination');
const { RunLog } = require('../../runtime/run-log');

const fd = fs.openSync('/dev/null', 'w');
const devNull = () => new BatchedDestination({ write: (data, done) => (fs.writeSync(fd, data), done?.(), true) });

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const jsonString = (text) => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);
const handBuilt = devNull();
const pinoBatched = new RunLog(false, devNull());
const pinoSonic = createLogger({ pretty: false, destination: pino.destination({ dest: fd, sync: false, minLength: 8192, periodicFlush: 20 }) });

const variants = {
  'hand-built line (before)': (method, path, status, ms, id) =>
    handBuilt.write(`{"level":30,"time":${Date.now()},"method":"${method}","path":${jsonString(path)},"status":${status},"ms":${ms},"reqId":${jsonString(id)},"msg":"request"}\n`),
  'pino, batched (now)': (method, path, status, ms, id) => pinoBatched.access(method, path, status, ms, id),
  'pino, sonic-boom async': (method, path, status, ms, reqId) => pinoSonic.info({ method, path, status, ms, reqId }, 'request'),
};

const LINES = 20_000;
async function block(write, round) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < LINES; i++) write('GET', '/tasks/1', 200, Math.round((0.42 + (i & 7) * 0.013) * 100) / 100, `b2f2a3c4-${(round * LINES + i).toString(36)}`);
  const ns = Number(process.hrtime.bigint() - started) / LINES;
  await new Promise((resolve) => setTimeout(resolve, 25));
  return ns;
}

(async () => {
  const rounds = Number(process.argv[2] ?? 60);
  const results = {};
  for (let round = 0; round < rounds; round++) for (const [name, write] of Object.entries(variants)) (results[name] ??= []).push(await block(write, round));
  const at = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
  for (const [name, list] of Object.entries(results)) {
    console.log(`${name.padEnd(26)} ns/line: min ${Math.min(...list).toFixed(0).padStart(5)}  p25 ${at(list, 0.25).toFixed(0).padStart(5)}  median ${at(list, 0.5).toFixed(0).padStart(5)}`);
  }
  process.exit(0);
})();
