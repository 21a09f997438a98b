#!/usr/bin/env node
'use strict';
// Two checkouts of trellis, one interleaved run: bench/apps/trellis.ts of each, on the bench's endpoints.
//
//   node bench/ab.js --a /path/to/checkout-a --b /path/to/checkout-b [--rounds 3] [--seconds 5]
//                    [--endpoints post-task,post-invalid,get-task] [--connections 64]
//
// A checkout is a directory with register.js, framework/ and bench/apps/ (for instance `git archive <commit> |
// tar -x -C DIR` plus a node_modules symlink). Every round runs each checkout once per endpoint, alternating which
// goes first; each cell is a fresh server process pinned to core 0 with wrk on core 1 (1 s warm-up, then
// --seconds measured), as in the main matrix (lib/phases/throughput.js). Prints medians of req/s, p99 and
// server CPU µs per request, and b/a.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pinning, pinSelf } = require('./lib/cpu');
const { ENDPOINTS, writeWrkScripts } = require('./lib/endpoints');
const { runInterleaved } = require('./lib/interleaved');
const { median, ratio } = require('./lib/stats');
const { assertWrk } = require('./lib/wrk');

function parse(argv) {
  const options = { a: '', b: '', rounds: 3, seconds: 5, connections: 64, endpoints: ['post-task', 'post-invalid', 'get-task'] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--a' || flag === '--b') options[flag.slice(2)] = path.resolve(value);
    else if (flag === '--rounds' || flag === '--seconds' || flag === '--connections') options[flag.slice(2)] = Number(value);
    else if (flag === '--endpoints') options.endpoints = value.split(',');
    else throw new Error(`unknown option ${flag}`);
  }
  if (!options.a || !options.b) throw new Error('usage: node bench/ab.js --a DIR --b DIR [--rounds 3] [--seconds 5] [--endpoints ids]');
  for (const dir of [options.a, options.b]) {
    if (!fs.existsSync(path.join(dir, 'bench', 'apps', 'trellis.ts'))) throw new Error(`${dir} has no bench/apps/trellis.ts`);
  }
  return options;
}

const contender = (id, dir) => ({
  id,
  label: dir,
  command: () => [process.execPath, '-r', path.join(dir, 'register.js'), path.join(dir, 'bench', 'apps', 'trellis.ts')],
});

async function main() {
  const options = parse(process.argv.slice(2));
  assertWrk();
  const pin = pinning();
  pinSelf(pin);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-ab-'));
  const context = {
    pin,
    settings: { warmupSeconds: 1, measureSeconds: options.seconds, connections: options.connections },
    scripts: writeWrkScripts(workDir),
  };
  const contenders = [contender('a', options.a), contender('b', options.b)];
  const endpoints = ENDPOINTS.filter((e) => options.endpoints.includes(e.id));
  let cells;
  try {
    cells = await runInterleaved(contenders, endpoints, { rounds: options.rounds, context, log: (line) => console.error(line) });
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  console.log(`a: ${options.a}\nb: ${options.b}\n${options.rounds} rounds x ${options.seconds} s, ${options.connections} connections, ` +
    `pinned: ${pin.pinned}, node ${process.version}; medians\n`);
  console.log('| endpoint | a req/s | b req/s | b/a | a p99 ms | b p99 ms | a CPU µs/req | b CPU µs/req | b/a CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const endpoint of endpoints) {
    const m = (id, key) => median(cells[endpoint.id][id].map((cell) => cell[key]));
    const [ar, br, ap, bp, ac, bc] = [m('a', 'rps'), m('b', 'rps'), m('a', 'p99'), m('b', 'p99'), m('a', 'cpuUs'), m('b', 'cpuUs')];
    console.log(`| ${endpoint.label} | ${Math.round(ar)} | ${Math.round(br)} | ${ratio(br, ar).toFixed(3)} | ${ap.toFixed(2)} | ` +
      `${bp.toFixed(2)} | ${ac.toFixed(1)} | ${bc.toFixed(1)} | ${ratio(bc, ac).toFixed(3)} |`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
