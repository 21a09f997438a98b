#!/usr/bin/env node
'use strict';
// Profiles one contender under load: `node bench/profile.js <contender> <endpoint> [seconds]`, e.g.
// `node bench/profile.js trellis get-task`. Runs the server with --cpu-prof, loads it with wrk, and prints
// the functions with the most self and inclusive time. The .cpuprofile is kept for Chrome DevTools.
// `startup` as the endpoint profiles a cold start instead: spawn to the first 200, no load.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { contenders } = require('./lib/contenders');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { summarizeProfile } = require('./lib/profile-summary');
const { startServer, ROOT } = require('./lib/server');
const { runWrk } = require('./lib/wrk');

/** @param {string[]} argv */
async function main(argv) {
  const [id, endpointId = 'get-task', seconds = '5', sampleDir] = argv;
  const contender = contenders(sampleDir).find((c) => c.id === id);
  const startup = endpointId === 'startup';
  const endpoint = ENDPOINTS.find((e) => e.id === endpointId);
  if (!contender || (!endpoint && !startup)) {
    throw new Error('usage: node bench/profile.js <contender> <endpoint> [seconds] [sampleDir for trellis-run]\n' +
      `  endpoints: ${ENDPOINTS.map((e) => e.id).join(', ')}, or startup`);
  }
  const pin = pinning();
  pinSelf(pin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-profile-'));
  const flags = ['--cpu-prof', '--cpu-prof-dir', dir, '-r', path.join(__dirname, 'lib', 'exit-on-signal.js')];
  const profiled = { ...contender, command: (port) => { const [node, ...rest] = contender.command(port); return [node, ...flags, ...rest]; } };
  const server = await startServer(profiled, pin);
  let headline = `${contender.label}, cold start: first 200 after ${Math.round(server.coldStartMs)} ms under the profiler`;
  if (endpoint) {
    const scripts = writeWrkScripts(dir);
    const run = { port: server.port, script: scripts[endpoint.id], connections: 64 };
    await runWrk(pin, { ...run, seconds: 1 });
    const result = await runWrk(pin, { ...run, seconds: Number(seconds) });
    headline = `${contender.label}, ${endpoint.label}: ${Math.round(result.requestsPerSecond)} req/s under the profiler`;
  }
  await server.stop();
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const summary = summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), ROOT);
  console.log(headline);
  console.log(`profile: ${path.join(dir, file)} (${Math.round(summary.totalMs)} ms sampled)\n\nself time:`);
  for (const s of summary.self) console.log(`  ${s.pct.toFixed(1).padStart(5)} %  ${s.name}`);
  console.log('\ninclusive time:');
  for (const s of summary.inclusive) console.log(`  ${s.pct.toFixed(1).padStart(5)} %  ${s.name}`);
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
