#!/usr/bin/env node
'use strict';
// Steady state, paired: one long-lived server per contender (all pinned to the server core, only one under load at
// a time), warmed up, then short wrk bursts taking turns, the order rotated every burst. Reports each contender's
// median server CPU per request and req/s, and against Fastify the median of the per-round ratios: a ratio taken
// seconds apart on warm processes, where vs-fastify.js compares fresh processes whose first seconds include the
// JIT compiling each framework (and measures each cell a minute apart on a machine whose speed drifts).
//
//   node bench/steady.js [--rounds 20] [--seconds 1] [--warmup 3] [--only raw,fastify,trellis] [--endpoints ids]
const { contenders: allContenders } = require('./lib/contenders');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { installPeers } = require('./lib/install');
const { cpuSecondsOf } = require('./lib/proc');
const { startServer } = require('./lib/server');
const { median, rotate } = require('./lib/stats');
const { assertWrk, runWrk } = require('./lib/wrk');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function parse(argv) {
  const options = { rounds: 20, seconds: 1, warmup: 3, only: ['raw', 'fastify', 'trellis'], endpoints: ENDPOINTS.map((e) => e.id) };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (['--rounds', '--seconds', '--warmup'].includes(flag)) options[flag.slice(2)] = Number(value);
    else if (flag === '--only') options.only = value.split(',');
    else if (flag === '--endpoints') options.endpoints = value.split(',');
    else throw new Error(`unknown option ${flag} (--rounds N, --seconds S, --warmup S, --only ids, --endpoints ids)`);
  }
  return options;
}

/** One burst: `{ cpuUs, rps }` of the server under `endpoint`'s script for `seconds`. */
async function burst(server, pin, script, seconds) {
  const before = cpuSecondsOf(server.pid);
  const result = await runWrk(pin, { port: server.port, script, seconds, connections: 64 });
  return { cpuUs: ((cpuSecondsOf(server.pid) - before) * 1e6) / result.requests, rps: result.requestsPerSecond };
}

async function main() {
  const options = parse(process.argv.slice(2));
  assertWrk();
  installPeers((line) => console.error(line));
  const pin = pinning();
  pinSelf(pin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-steady-'));
  const scripts = writeWrkScripts(dir);
  const endpoints = ENDPOINTS.filter((e) => options.endpoints.includes(e.id));
  const list = allContenders().filter((c) => options.only.includes(c.id));
  const servers = [];
  try {
    for (const contender of list) servers.push(await startServer(contender, pin, { readyPath: contender.readyPath }));
    for (const server of servers) for (const e of endpoints) await runWrk(pin, { port: server.port, script: scripts[e.id], seconds: options.warmup, connections: 64 });
    const cells = new Map(); // `${endpoint}/${contender}` -> bursts
    let shift = 0;
    for (let round = 0; round < options.rounds; round++) {
      for (const e of endpoints) {
        for (const server of rotate(servers, shift++)) {
          const key = `${e.id}/${server.contender.id}`;
          cells.set(key, [...(cells.get(key) ?? []), await burst(server, pin, scripts[e.id], options.seconds)]);
        }
      }
      process.stderr.write(`round ${round + 1}/${options.rounds}\n`);
    }
    console.log(`${options.rounds} rounds x ${options.seconds} s bursts after ${options.warmup} s of warm-up per endpoint, 64 connections, pinned: ${pin.pinned}, node ${process.version}; medians\n`);
    console.log('| endpoint | contender | server CPU µs/req | req/s | CPU × Fastify (paired) | req/s × Fastify (paired) |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const e of endpoints) {
      const fastify = cells.get(`${e.id}/fastify`);
      for (const server of servers) {
        const own = cells.get(`${e.id}/${server.contender.id}`);
        const paired = (field) => (fastify ? median(own.map((b, i) => b[field] / fastify[i][field])).toFixed(2) : '');
        console.log(`| ${e.label} | ${server.contender.label} | ${median(own.map((b) => b.cpuUs)).toFixed(1)} | ${Math.round(median(own.map((b) => b.rps)))} | ${paired('cpuUs')} | ${paired('rps')} |`);
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
