#!/usr/bin/env node
'use strict';
// What the access log of `trellis run` costs per request, one checkout of trellis against another (issue 12:
// the hand-built line against pino's). Each checkout serves the same sample project (made by this checkout's
// `trellis create`) with and without its access log, on GET /tasks/1 and POST /tasks; every cell is a fresh
// server pinned to core 0 with its stdout going to a file (as under a supervisor that keeps the log), wrk on
// core 1, 1 s warm-up then --seconds measured; contenders interleaved and rotated every cell, --rounds times.
// The access log's cost is the server CPU per request with it minus without it, in the same checkout.
//
//   git archive <commit> | tar -x -C /tmp/trellis-base && ln -s "$PWD/node_modules" /tmp/trellis-base/
//   node bench/access-log.js --checkout base=/tmp/trellis-base --checkout pino=. [--rounds 3] [--seconds 5]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { runCreate } = require('./lib/phases/create');
const { cpuSecondsOf, memoryOf } = require('./lib/proc');
const { startServer } = require('./lib/server');
const { median, rotate } = require('./lib/stats');
const { assertWrk, runWrk } = require('./lib/wrk');

const ENDPOINT_IDS = ['get-task', 'post-task'];

function parse(argv) {
  /** @type {{ checkouts: Array<{ name: string, dir: string }>, rounds: number, seconds: number }} */
  const options = { checkouts: [], rounds: 3, seconds: 5 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[++i]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--checkout') {
      const [name, dir] = value.split('=');
      if (!name || !dir || !fs.existsSync(path.join(dir, 'bin', 'trellis.js'))) throw new Error(`--checkout NAME=DIR, DIR a trellis checkout: ${value}`);
      options.checkouts.push({ name, dir: path.resolve(dir) });
    } else if (flag === '--rounds') options.rounds = Number(value);
    else if (flag === '--seconds') options.seconds = Number(value);
    else throw new Error(`unknown option ${flag}`);
  }
  if (options.checkouts.length === 0) throw new Error('give at least one --checkout NAME=DIR');
  return options;
}

const quote = (word) => `'${word.replace(/'/g, "'\\''")}'`;

/** Busy and total time of one core so far, in clock ticks (/proc/stat). */
function coreTicks(core) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (line === undefined) throw new Error(`/proc/stat has no line for core ${core}`);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Resolves once no other wrk runs on this machine (another benchmark would share the pinned cores). */
async function othersBenchmarkDone() {
  const running = () =>
    fs.readdirSync('/proc').some((pid) => {
      try {
        return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'wrk';
      } catch {
        return false;
      }
    });
  while (running()) await new Promise((resolve) => setTimeout(resolve, 1000));
}

/**
 * One cell: a fresh server, 1 s of warm-up, then `seconds` measured. `others` is the share of the server's core
 * that went to other processes meanwhile (this machine is shared): a cell where it exceeds 5 % is measured again.
 */
async function measure(contender, endpoint, { pin, scripts, seconds }) {
  for (let attempt = 1; ; attempt++) {
    await othersBenchmarkDone();
    const server = await startServer(contender, pin);
    try {
      const run = { port: server.port, script: scripts[endpoint.id], connections: 64 };
      await runWrk(pin, { ...run, seconds: 1 });
      const [cpuBefore, coreBefore] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
      const result = await runWrk(pin, { ...run, seconds });
      const [cpuAfter, coreAfter] = [cpuSecondsOf(server.pid), coreTicks(pin.server)];
      const ticks = coreAfter.total - coreBefore.total;
      const others = Math.max(0, (coreAfter.busy - coreBefore.busy) / ticks - ((cpuAfter - cpuBefore) * 100) / ticks);
      const cell = { rps: result.requestsPerSecond, cpuUs: ((cpuAfter - cpuBefore) * 1e6) / result.requests, others, attempt, peakMB: memoryOf(server.pid).peakMB };
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
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-access-log-'));
  const log = (line) => process.stdout.write(`${line}\n`);
  try {
    const { sampleDir } = await runCreate({ settings: { createRuns: 1 }, workDir, log: () => {} });
    if (!sampleDir) throw new Error('trellis create failed');
    const contenders = options.checkouts.flatMap(({ name, dir }) =>
      [true, false].map((accessLog) => {
        const id = `${name}${accessLog ? '' : ' --no-access-log'}`;
        const out = path.join(workDir, `${name}-${accessLog}.log`);
        const run = [process.execPath, path.join(dir, 'bin', 'trellis.js'), 'run', sampleDir, '--host', '127.0.0.1'];
        // `exec`: the pid measured (and pinned by taskset) is the server's, not the shell's.
        const command = (port) => ['sh', '-c', `exec ${[...run, '--port', String(port), accessLog ? '--access-log' : '--no-access-log'].map(quote).join(' ')} > ${quote(out)}`];
        return { id, name, accessLog, out, command };
      }),
    );
    const context = { pin, seconds: options.seconds, scripts: writeWrkScripts(workDir) };
    log(`pinned: ${pin.pinned} (server core ${pin.server}, wrk core ${pin.load}); ${options.rounds} rounds of ${options.seconds} s per cell`);
    const cells = {};
    let shift = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const endpoint of ENDPOINTS.filter((e) => ENDPOINT_IDS.includes(e.id))) {
        for (const contender of rotate(contenders, shift++)) {
          const cell = await measure(contender, endpoint, context);
          const lines = fs.readFileSync(contender.out, 'utf8').split('\n').filter((line) => line.includes('"msg":"request"')).length;
          ((cells[endpoint.id] ??= {})[contender.id] ??= []).push(cell);
          log(
            `round ${round} ${endpoint.label.padEnd(13)} ${contender.id.padEnd(28)} ${Math.round(cell.rps).toString().padStart(6)} req/s` +
              `  ${cell.cpuUs.toFixed(2).padStart(6)} µs CPU/req  ${lines} access lines  peak RSS ${cell.peakMB.toFixed(0)} MB  others ${(cell.others * 100).toFixed(1)} % of the core (attempt ${cell.attempt})`,
          );
        }
      }
    }
    log('\nmedians                                      req/s   µs CPU/req   peak RSS MB   access log µs/req (with - without)');
    for (const [endpointId, byContender] of Object.entries(cells)) {
      for (const contender of contenders) {
        const list = byContender[contender.id];
        const cpu = median(list.map((c) => c.cpuUs));
        const without = contender.accessLog ? median(byContender[`${contender.name} --no-access-log`].map((c) => c.cpuUs)) : NaN;
        const cost = contender.accessLog ? (cpu - without).toFixed(2) : '';
        const rss = median(list.map((c) => c.peakMB)).toFixed(0);
        log(`${endpointId.padEnd(10)} ${contender.id.padEnd(32)} ${Math.round(median(list.map((c) => c.rps))).toString().padStart(7)} ${cpu.toFixed(2).padStart(10)} ${rss.padStart(13)}   ${cost}`);
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
