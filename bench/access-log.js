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
const { measureCell } = require('./lib/phases/throughput');
const { runCreate } = require('./lib/phases/create');
const { median, rotate } = require('./lib/stats');
const { assertWrk } = require('./lib/wrk');

const ENDPOINT_IDS = ['get-task', 'post-task'];

function parse(argv) {
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
    const context = { pin, settings: { warmupSeconds: 1, measureSeconds: options.seconds, connections: 64 }, scripts: writeWrkScripts(workDir) };
    log(`pinned: ${pin.pinned} (server core ${pin.server}, wrk core ${pin.load}); ${options.rounds} rounds of ${options.seconds} s per cell`);
    const cells = {};
    let shift = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const endpoint of ENDPOINTS.filter((e) => ENDPOINT_IDS.includes(e.id))) {
        for (const contender of rotate(contenders, shift++)) {
          const cell = await measureCell(contender, endpoint, context);
          const lines = fs.readFileSync(contender.out, 'utf8').split('\n').filter((line) => line.includes('"msg":"request"')).length;
          ((cells[endpoint.id] ??= {})[contender.id] ??= []).push(cell);
          log(
            `round ${round} ${endpoint.label.padEnd(13)} ${contender.id.padEnd(28)} ${Math.round(cell.rps).toString().padStart(6)} req/s` +
              `  ${cell.cpuUs.toFixed(2).padStart(6)} µs CPU/req  ${lines} access lines${cell.wrong ? `  (${cell.wrong} wrong status)` : ''}`,
          );
        }
      }
    }
    log('\nmedians                                      req/s   µs CPU/req   access log µs/req (with - without)');
    for (const [endpointId, byContender] of Object.entries(cells)) {
      for (const contender of contenders) {
        const list = byContender[contender.id];
        const cpu = median(list.map((c) => c.cpuUs));
        const without = contender.accessLog ? median(byContender[`${contender.name} --no-access-log`].map((c) => c.cpuUs)) : NaN;
        const cost = contender.accessLog ? (cpu - without).toFixed(2) : '';
        log(`${endpointId.padEnd(10)} ${contender.id.padEnd(32)} ${Math.round(median(list.map((c) => c.rps))).toString().padStart(7)} ${cpu.toFixed(2).padStart(10)}   ${cost}`);
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
