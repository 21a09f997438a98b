#!/usr/bin/env node
'use strict';
// What `AppOptions.metrics` costs a request: bench/apps/trellis-metrics.ts with metrics off and on (the same app and
// routers), server pinned to core 0, wrk on core 1 (1 thread, --connections). Two measurements, one after the other:
//
// - processes: every cell a fresh server, 1 s of warm-up then --seconds measured; off and on back to back in each of
//   --rounds rounds, alternating which goes first. A cell is measured again (up to 5 times) when other processes
//   took more than 5 % of the server's core meanwhile. With metrics on, the cell ends by reading /metrics and
//   checking that it counted every request wrk made under the route's pattern, then times --scrapes reads of it.
// - one process: both apps in one server process (off and on, on two ports), warmed up, then --blocks pairs of
//   --block-seconds of load on each in turn (a pair measured again, up to 5 times, when others took more than 5 %
//   of the core). The difference between two processes of the same code (memory layout, JIT decisions) is left
//   out, and so is most of the machine's drift: each pair is measured within a few seconds. The code the two apps
//   share sees both apps, as it would not in production (the listener's read of the app's metrics finds them in
//   one app and not in the other).
//
// - profile: the on app alone under --cpu-prof (100 µs sampling) for --seconds of load after 1 s of warm-up: the
//   share of the server's busy time spent in the metrics code (framework/metrics/request-tallies.ts: `track`, with
//   the `close` listener it adds, and the listener itself, with the tally and the second clock read). This is the
//   cost counted directly, where the two measurements above compare two noisy totals. `--mode all` runs the three.
//
// Before each cell (and each pair measured again) it waits for a quiet machine: no other wrk, both cores at most
// 10 % busy over a second (the machine is shared with other sessions' test suites).
//
//   node bench/metrics.js [--mode both|processes|one-process|profile|all] [--rounds 20] [--seconds 5] [--blocks 30]
//                         [--block-seconds 4] [--connections 64] [--endpoints get-task] [--scrapes 20]
//
// The figure is the server CPU per request (user + system time of the server process over the requests wrk
// counted; it leaves out stolen time), on over off; req/s is printed too.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { request } = require('./lib/http-get');
const { cpuSecondsOf } = require('./lib/proc');
const { summarizeProfile } = require('./lib/profile-summary');
const { freePort, ROOT, startServer } = require('./lib/server');
const { median, rotate } = require('./lib/stats');
const { assertWrk, runWrk } = require('./lib/wrk');

const APP = path.join(__dirname, 'apps', 'trellis-metrics.ts');
const ROUTES = { 'get-task': ['GET', '/tasks/{task_id}'], 'post-task': ['POST', '/tasks'], search: ['GET', '/products/search'] };
const NUMBERS = ['--rounds', '--seconds', '--blocks', '--block-seconds', '--connections', '--scrapes'];

function parse(argv) {
  const options = { mode: 'both', rounds: 20, seconds: 5, blocks: 30, blockSeconds: 4, connections: 64, endpoints: ['get-task'], scrapes: 20 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (NUMBERS.includes(flag)) options[flag.slice(2).replace(/-(\w)/g, (_, c) => c.toUpperCase())] = Number(value);
    else if (flag === '--endpoints') options.endpoints = value.split(',');
    else if (flag === '--mode' && ['both', 'processes', 'one-process', 'profile', 'all'].includes(value)) options.mode = value;
    else throw new Error(`unknown option ${flag} ${value}`);
  }
  for (const id of options.endpoints) if (!ROUTES[id]) throw new Error(`--endpoints: one of ${Object.keys(ROUTES).join(', ')}`);
  return options;
}

/** @param {string} metrics @param {Record<string, string>} [env] */
const contender = (metrics, env = {}) => ({
  id: `metrics ${metrics}`,
  metrics,
  env: { METRICS: metrics, ...env },
  command: () => [process.execPath, '-r', path.join(__dirname, '..', 'register.js'), APP],
});

/** Busy and total time of one core so far, in clock ticks (/proc/stat). */
function coreTicks(core) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (line === undefined) throw new Error(`/proc/stat has no line for core ${core}`);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/**
 * Resolves once no other wrk runs on this machine (another benchmark would share the pinned cores) and both cores
 * were at most 10 % busy over one second (called while this harness and its server are idle: what is busy is
 * someone else's, such as another session's test suite).
 */
async function quietMachine(log) {
  await othersBenchmarkDone();
  for (let waited = 0; ; waited++) {
    const before = [0, 1].map(coreTicks);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const busy = [0, 1].map((core, i) => {
      const after = coreTicks(core);
      return (after.busy - before[i].busy) / (after.total - before[i].total);
    });
    if (busy.every((b) => b <= 0.1)) return;
    if (waited % 30 === 0) log(`  waiting for a quiet machine (cores busy ${busy.map(pct).join(', ')})`);
  }
}

async function othersBenchmarkDone() {
  const wrkRunning = () =>
    fs.readdirSync('/proc').some((pid) => {
      try {
        return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'wrk';
      } catch {
        return false;
      }
    });
  while (wrkRunning()) await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** wrk against `port` for `seconds`, with the server's CPU per request and the share of its core others took. */
async function loadBlock(pin, server, port, run, seconds) {
  const [cpuBefore, coreBefore] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
  const result = await runWrk(pin, { ...run, port, seconds });
  const [cpuAfter, coreAfter] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
  const ticks = coreAfter.total - coreBefore.total;
  const others = Math.max(0, (coreAfter.busy - coreBefore.busy) / ticks - ((cpuAfter - cpuBefore) * 100) / ticks);
  return { rps: result.requestsPerSecond, requests: result.requests, cpuSeconds: cpuAfter - cpuBefore, cpuUs: ((cpuAfter - cpuBefore) * 1e6) / result.requests, others, wrong: result.non2xx };
}

/** The sum of `http_requests_total` samples of one route and method, from the text format. */
function counted(text, method, route) {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('http_requests_total{') && line.includes(`method="${method}"`) && line.includes(`route="${route}"`)) {
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}

async function measureCell(c, endpoint, { pin, scripts, seconds, connections, scrapes, log }) {
  for (let attempt = 1; ; attempt++) {
    await quietMachine(log);
    const server = await startServer(c, pin);
    try {
      const run = { script: scripts[endpoint.id], connections };
      const warm = await runWrk(pin, { ...run, port: server.port, seconds: 1 });
      const cell = /** @type {any} */ ({ ...(await loadBlock(pin, server, server.port, run, seconds)), attempt });
      const page = await request(server.port, { path: '/metrics' });
      if (c.metrics === 'on') {
        if (page.status !== 200) throw new Error(`GET /metrics answered ${page.status}`);
        const [method, route] = ROUTES[endpoint.id];
        // wrk counts the responses it read: the server also counted those in flight when wrk stopped (up to one
        // per connection, twice) and the readiness poll's.
        cell.counted = counted(page.text, method, route);
        cell.sent = warm.requests + cell.requests;
        const cpu = cpuSecondsOf(server.pid);
        const started = process.hrtime.bigint();
        for (let i = 0; i < scrapes; i++) await request(server.port, { path: '/metrics' });
        cell.scrapeMs = Number(process.hrtime.bigint() - started) / 1e6 / scrapes;
        cell.scrapeCpuMs = ((cpuSecondsOf(server.pid) - cpu) * 1000) / scrapes;
        cell.scrapeBytes = Buffer.byteLength(page.text);
      } else if (page.status !== 404) throw new Error(`GET /metrics answered ${page.status} with metrics off`);
      if ((cell.others <= 0.05 && cell.requests > 0) || attempt === 5) return cell;
    } finally {
      await server.stop();
    }
  }
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** Median and quartiles of on/off ratios, as `1.012 (0.990-1.031)`. */
function spread(ratios) {
  const sorted = [...ratios].sort((a, b) => a - b);
  const q = (p) => sorted[Math.round((sorted.length - 1) * p)];
  return `${median(sorted).toFixed(3)} (${q(0.25).toFixed(3)}-${q(0.75).toFixed(3)})`;
}

async function processes(endpoints, context, log) {
  const contenders = [contender('off'), contender('on')];
  const cells = {};
  let shift = 0;
  for (let round = 1; round <= context.rounds; round++) {
    for (const endpoint of endpoints) {
      for (const c of rotate(contenders, shift++)) {
        const cell = await measureCell(c, endpoint, context);
        ((cells[endpoint.id] ??= {})[c.metrics] ??= []).push(cell);
        const extra = c.metrics === 'on'
          ? `  counted ${cell.counted} of ${cell.sent} sent; scrape ${cell.scrapeMs.toFixed(2)} ms, ${cell.scrapeCpuMs.toFixed(2)} ms CPU, ${cell.scrapeBytes} bytes`
          : '';
        log(`round ${round} ${endpoint.label.padEnd(13)} ${c.id.padEnd(11)} ${Math.round(cell.rps).toString().padStart(6)} req/s  ` +
          `${cell.cpuUs.toFixed(2).padStart(6)} µs CPU/req  others ${pct(cell.others)} (attempt ${cell.attempt})` +
          (cell.wrong ? `  ${cell.wrong} wrong status` : '') + extra);
      }
    }
  }
  log(`\nFresh processes, ${context.rounds} rounds x ${context.seconds} s, medians; on/off per round: off and on measured back to back.\n`);
  log('| endpoint | off req/s | on req/s | on/off req/s | off µs CPU/req | on µs CPU/req | on/off CPU | on/off CPU per round: median (quartiles) |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const endpoint of endpoints) {
    const { off, on } = cells[endpoint.id];
    const m = (list, key) => median(list.map((cell) => cell[key]));
    const [offRps, onRps, offCpu, onCpu] = [m(off, 'rps'), m(on, 'rps'), m(off, 'cpuUs'), m(on, 'cpuUs')];
    log(`| ${endpoint.label} | ${Math.round(offRps)} | ${Math.round(onRps)} | ${(onRps / offRps).toFixed(3)} | ${offCpu.toFixed(2)} | ` +
      `${onCpu.toFixed(2)} | ${(onCpu / offCpu).toFixed(3)} | ${spread(on.map((cell, i) => cell.cpuUs / off[i].cpuUs))} |`);
  }
  for (const endpoint of endpoints) {
    const { on } = cells[endpoint.id];
    log(`\n${endpoint.label}, metrics on: one scrape of /metrics ${median(on.map((c) => c.scrapeMs)).toFixed(2)} ms ` +
      `(${median(on.map((c) => c.scrapeCpuMs)).toFixed(2)} ms server CPU, ${median(on.map((c) => c.scrapeBytes))} bytes), medians; ` +
      `requests counted by /metrics - sent by wrk: ${on.map((c) => c.counted - c.sent).join(', ')}`);
  }
}

async function oneProcess(endpoints, context, log) {
  const { pin, scripts, blocks, blockSeconds, connections } = context;
  const portOn = await freePort();
  const both = contender('both', { PORT_ON: String(portOn) });
  await quietMachine(log);
  const server = await startServer(both, pin);
  const ports = { off: server.port, on: portOn };
  const results = {};
  try {
    if ((await request(ports.on, { path: '/metrics' })).status !== 200) throw new Error('the on app does not serve /metrics');
    for (const endpoint of endpoints) {
      const run = { script: scripts[endpoint.id], connections };
      for (const side of ['off', 'on', 'off', 'on']) await runWrk(pin, { ...run, port: ports[side], seconds: 2 }); // warm-up
      const pairs = [];
      for (let block = 1; block <= blocks; block++) {
        // A pair during which others took more than 5 % of the server's core is measured again (up to 5 times).
        let pair;
        for (let attempt = 1; attempt <= 5; attempt++) {
          if (attempt > 1) await quietMachine(log);
          pair = /** @type {any} */ ({ attempt });
          for (const side of block % 2 ? ['off', 'on'] : ['on', 'off']) pair[side] = await loadBlock(pin, server, ports[side], run, blockSeconds);
          if (pair.off.others <= 0.05 && pair.on.others <= 0.05) break;
        }
        pairs.push(pair);
        log(`block ${block} ${endpoint.label.padEnd(13)} off ${pair.off.cpuUs.toFixed(2)} µs CPU/req (${Math.round(pair.off.rps)} req/s, others ${pct(pair.off.others)})` +
          `  on ${pair.on.cpuUs.toFixed(2)} µs CPU/req (${Math.round(pair.on.rps)} req/s, others ${pct(pair.on.others)})  on/off ${(pair.on.cpuUs / pair.off.cpuUs).toFixed(3)} (attempt ${pair.attempt})`);
      }
      results[endpoint.id] = pairs;
    }
  } finally {
    await server.stop();
  }
  log(`\nOne process serving both apps, ${blocks} pairs of ${blockSeconds} s blocks, alternating which goes first.\n`);
  log('| endpoint | off µs CPU/req (all blocks) | on µs CPU/req (all blocks) | on/off CPU | on/off CPU per pair: median (quartiles) | on/off req/s per pair: median |');
  log('|---|---:|---:|---:|---:|---:|');
  for (const endpoint of endpoints) {
    const pairs = results[endpoint.id];
    const total = (side) => (pairs.reduce((s, p) => s + p[side].cpuSeconds, 0) * 1e6) / pairs.reduce((s, p) => s + p[side].requests, 0);
    const [off, on] = [total('off'), total('on')];
    log(`| ${endpoint.label} | ${off.toFixed(2)} | ${on.toFixed(2)} | ${(on / off).toFixed(3)} | ${spread(pairs.map((p) => p.on.cpuUs / p.off.cpuUs))} | ` +
      `${median(pairs.map((p) => p.on.rps / p.off.rps)).toFixed(3)} |`);
  }
}

async function profile(endpoints, context, workDir, log) {
  const { pin, scripts, seconds, connections } = context;
  log('\nProfile of the on app (--cpu-prof, 100 µs sampling); share of the busy samples (all but idle), inclusive.\n');
  log('| endpoint | req/s under the profiler | busy ms sampled | track() | close listener | metrics code in all | µs per request |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const endpoint of endpoints) {
    const dir = fs.mkdtempSync(path.join(workDir, 'profile-'));
    const on = contender('on');
    const flags = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100', '-r', path.join(__dirname, 'lib', 'exit-on-signal.js')];
    const profiled = { ...on, command: () => { const [node, ...rest] = on.command(); return [node, ...flags, ...rest]; } };
    await quietMachine(log);
    const server = await startServer(profiled, pin);
    const run = { port: server.port, script: scripts[endpoint.id], connections };
    await runWrk(pin, { ...run, seconds: 1 });
    const result = await runWrk(pin, { ...run, seconds });
    await server.stop();
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written in ${dir}`);
    const summary = summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), ROOT, Infinity);
    const ms = (test) => summary.inclusive.filter((s) => test(s.name)).reduce((sum, s) => sum + s.ms, 0);
    const idle = ms((name) => name.startsWith('(idle)'));
    const busy = summary.totalMs - idle;
    // The frames of request-tallies.ts: `track` and the anonymous `close` listener it adds (which calls `observe`).
    const inFile = (name) => name.includes('framework/metrics/request-tallies.ts');
    const track = ms((name) => inFile(name) && name.startsWith('track '));
    const listener = ms((name) => inFile(name) && name.startsWith('(anonymous) '));
    const share = (x) => `${((100 * x) / busy).toFixed(2)} %`;
    // Per request: the busy time of the profile spread over the requests, times the share (the profiler's own cost included in both).
    const perRequest = ((track + listener) * 1000) / (result.requests * (1 + 1 / seconds));
    log(`| ${endpoint.label} | ${Math.round(result.requestsPerSecond)} | ${Math.round(busy)} | ${share(track)} | ${share(listener)} | ` +
      `${share(track + listener)} | ${perRequest.toFixed(2)} |`);
  }
}

async function main() {
  const options = parse(process.argv.slice(2));
  assertWrk();
  const pin = pinning();
  pinSelf(pin);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-metrics-bench-'));
  const log = (line) => process.stdout.write(`${line}\n`);
  const endpoints = ENDPOINTS.filter((e) => options.endpoints.includes(e.id));
  const context = { pin, scripts: writeWrkScripts(workDir), log, ...options };
  log(`pinned: ${pin.pinned} (server core ${pin.server}, wrk core ${pin.load}); ${options.connections} connections; node ${process.version}`);
  try {
    const run = (mode) => options.mode === mode || options.mode === 'all' || (options.mode === 'both' && mode !== 'profile');
    if (run('processes')) await processes(endpoints, context, log);
    if (run('one-process')) await oneProcess(endpoints, context, log);
    if (run('profile')) await profile(endpoints, context, workDir, log);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
