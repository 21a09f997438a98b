#!/usr/bin/env node
'use strict';
// What `AppOptions.metrics` costs a request: bench/apps/trellis-metrics.ts with metrics off and on (the same app
// and routers), in one interleaved run. Every cell is a fresh server pinned to core 0, wrk on core 1 (1 thread,
// --connections), 1 s of warm-up then --seconds measured; the two contenders alternate which goes first, --rounds
// times. A cell waits while another wrk runs on the machine, and is measured again (up to 5 times) when other
// processes took more than 5 % of the server's core meanwhile (the machine is shared). With metrics on, the cell
// ends by reading /metrics and checks that it counted every request wrk made (warm-up included) under the
// route's pattern; then it times --scrapes reads of /metrics (what one Prometheus scrape costs the server).
//
//   node bench/metrics.js [--rounds 10] [--seconds 5] [--connections 64] [--endpoints get-task] [--scrapes 20]
//
// The cost is the server CPU per request with metrics on minus off (the steadier figure: it leaves out stolen
// time); req/s is printed too.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { request } = require('./lib/http-get');
const { cpuSecondsOf } = require('./lib/proc');
const { startServer } = require('./lib/server');
const { median, rotate } = require('./lib/stats');
const { assertWrk, runWrk } = require('./lib/wrk');

const APP = path.join(__dirname, 'apps', 'trellis-metrics.ts');
const ROUTES = { 'get-task': ['GET', '/tasks/{task_id}'], 'post-task': ['POST', '/tasks'], search: ['GET', '/products/search'] };

function parse(argv) {
  const options = { rounds: 10, seconds: 5, connections: 64, endpoints: ['get-task'], scrapes: 20 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (['--rounds', '--seconds', '--connections', '--scrapes'].includes(flag)) options[flag.slice(2)] = Number(value);
    else if (flag === '--endpoints') options.endpoints = value.split(',');
    else throw new Error(`unknown option ${flag}`);
  }
  for (const id of options.endpoints) if (!ROUTES[id]) throw new Error(`--endpoints: one of ${Object.keys(ROUTES).join(', ')}`);
  return options;
}

const contender = (metrics) => ({
  id: `metrics ${metrics}`,
  metrics,
  env: { METRICS: metrics },
  command: () => [process.execPath, '-r', path.join(__dirname, '..', 'register.js'), APP],
});

/** Busy and total time of one core so far, in clock ticks (/proc/stat). */
function coreTicks(core) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${core} `));
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Resolves once no other wrk runs on this machine (another benchmark would share the pinned cores). */
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

async function measure(c, endpoint, { pin, scripts, seconds, connections, scrapes }) {
  for (let attempt = 1; ; attempt++) {
    await othersBenchmarkDone();
    const server = await startServer(c, pin);
    try {
      const run = { port: server.port, script: scripts[endpoint.id], connections };
      const warm = await runWrk(pin, { ...run, seconds: 1 });
      const [cpuBefore, coreBefore] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
      const result = await runWrk(pin, { ...run, seconds });
      const [cpuAfter, coreAfter] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
      const ticks = coreAfter.total - coreBefore.total;
      const others = Math.max(0, (coreAfter.busy - coreBefore.busy) / ticks - ((cpuAfter - cpuBefore) * 100) / ticks);
      const cell = { rps: result.requestsPerSecond, cpuUs: ((cpuAfter - cpuBefore) * 1e6) / result.requests, others, attempt, wrong: result.non2xx };
      const page = await request(server.port, { path: '/metrics' });
      if (c.metrics === 'on') {
        if (page.status !== 200) throw new Error(`GET /metrics answered ${page.status}`);
        const [method, route] = ROUTES[endpoint.id];
        // wrk counts the responses it read; a request in flight when it stopped may be counted by the server too.
        cell.counted = counted(page.text, method, route);
        cell.sent = warm.requests + result.requests;
        const cpu = cpuSecondsOf(server.pid);
        const started = process.hrtime.bigint();
        for (let i = 0; i < scrapes; i++) await request(server.port, { path: '/metrics' });
        cell.scrapeMs = Number(process.hrtime.bigint() - started) / 1e6 / scrapes;
        cell.scrapeCpuMs = ((cpuSecondsOf(server.pid) - cpu) * 1000) / scrapes;
        cell.scrapeBytes = Buffer.byteLength(page.text);
      } else if (page.status !== 404) throw new Error(`GET /metrics answered ${page.status} with metrics off`);
      if ((others <= 0.05 && result.requests > 0) || attempt === 5) return cell;
    } finally {
      await server.stop();
    }
  }
}

async function main() {
  const options = parse(process.argv.slice(2));
  assertWrk();
  const pin = pinning();
  pinSelf(pin);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-metrics-bench-'));
  const log = (line) => process.stdout.write(`${line}\n`);
  const contenders = [contender('off'), contender('on')];
  const endpoints = ENDPOINTS.filter((e) => options.endpoints.includes(e.id));
  const context = { pin, scripts: writeWrkScripts(workDir), ...options };
  const cells = {};
  try {
    log(`pinned: ${pin.pinned} (server core ${pin.server}, wrk core ${pin.load}); ${options.rounds} rounds x ${options.seconds} s, ` +
      `${options.connections} connections, node ${process.version}`);
    let shift = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const endpoint of endpoints) {
        for (const c of rotate(contenders, shift++)) {
          const cell = await measure(c, endpoint, context);
          ((cells[endpoint.id] ??= {})[c.id] ??= []).push(cell);
          const extra = c.metrics === 'on'
            ? `  counted ${cell.counted} of ${cell.sent} sent; scrape ${cell.scrapeMs.toFixed(2)} ms, ${cell.scrapeCpuMs.toFixed(2)} ms CPU, ${cell.scrapeBytes} bytes`
            : '';
          log(`round ${round} ${endpoint.label.padEnd(13)} ${c.id.padEnd(11)} ${Math.round(cell.rps).toString().padStart(6)} req/s  ` +
            `${cell.cpuUs.toFixed(2).padStart(6)} µs CPU/req  others ${(cell.others * 100).toFixed(1)} % (attempt ${cell.attempt})` +
            (cell.wrong ? `  ${cell.wrong} wrong status` : '') + extra);
        }
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  log('\n| endpoint | off req/s | on req/s | on/off req/s | off µs CPU/req | on µs CPU/req | on/off CPU | cost µs/req |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const endpoint of endpoints) {
    const m = (id, key) => median(cells[endpoint.id][id].map((cell) => cell[key]));
    const [offRps, onRps, offCpu, onCpu] = [m('metrics off', 'rps'), m('metrics on', 'rps'), m('metrics off', 'cpuUs'), m('metrics on', 'cpuUs')];
    log(`| ${endpoint.label} | ${Math.round(offRps)} | ${Math.round(onRps)} | ${(onRps / offRps).toFixed(3)} | ${offCpu.toFixed(2)} | ` +
      `${onCpu.toFixed(2)} | ${(onCpu / offCpu).toFixed(3)} | ${(onCpu - offCpu).toFixed(2)} |`);
  }
  for (const endpoint of endpoints) {
    const on = cells[endpoint.id]['metrics on'];
    log(`\n${endpoint.label}, metrics on: one scrape of /metrics ${median(on.map((c) => c.scrapeMs)).toFixed(2)} ms ` +
      `(${median(on.map((c) => c.scrapeCpuMs)).toFixed(2)} ms server CPU, ${median(on.map((c) => c.scrapeBytes))} bytes), medians; ` +
      `requests counted / sent by wrk: ${on.map((c) => `${c.counted}/${c.sent}`).join(', ')}`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
