#!/usr/bin/env node
'use strict';
// Files through trellis against `express.static`, in one interleaved run:
//
//   node bench/static.js > static.md      # markdown on stdout, progress on stderr; ~2 min
//   node bench/static.js --rounds 3 --seconds 5 --connections 50   # the defaults
//
// Requests: GET /static/app.css (2 KB) and GET /static/app.js (100 KB), files written to a temporary folder, and
// the docs asset GET /docs/assets/swagger-ui.css (swagger-ui-dist's file, ~180 KB).
// Contenders: trellis (bench/apps/trellis-static.ts: `mountStatic('/static', dir)` and its docs) and Express 5
// (bench/apps/express-static.js: `express.static` with its defaults on the same folder and on swagger-ui-dist's).
// Fastify with @fastify/static is not among bench's peers (bench/package.json), so it is not measured.
// Each round runs every contender once per request, alternating which goes first; each cell is a fresh server
// process on core 0 with wrk on core 1 (1 s warm-up, then --seconds measured), as in the main matrix
// (lib/phases/throughput.js). Answers are checked first: status 200 and the same bytes from every contender.
// Before issue 12 trellis served the docs assets from a Buffer in memory and static files through serve-static
// on its Express fallback; express.static reads each file from disk.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { versionOf } = require('./lib/contenders');
const { pinning, pinSelf, machine } = require('./lib/cpu');
const { request } = require('./lib/http-get');
const { measureCell } = require('./lib/phases/throughput');
const { startServer } = require('./lib/server');
const { median, ratio, rotate } = require('./lib/stats');
const { assertWrk } = require('./lib/wrk');

const REQUESTS = [
  { id: 'css-2k', label: 'GET /static/app.css (2 KB)', path: '/static/app.css', status: [200] },
  { id: 'js-100k', label: 'GET /static/app.js (100 KB)', path: '/static/app.js', status: [200] },
  { id: 'docs-css', label: 'GET /docs/assets/swagger-ui.css', path: '/docs/assets/swagger-ui.css', status: [200] },
];

const app = (file) => path.join('bench', 'apps', file);
const CONTENDERS = [
  { id: 'trellis', label: 'trellis mountStatic / docs', command: () => [process.execPath, '-r', './register.js', app('trellis-static.ts')] },
  { id: 'express', label: `Express ${versionOf('express')} express.static`, command: () => [process.execPath, app('express-static.js')] },
];
const BASELINE = 'express';

function parse(argv) {
  const options = { rounds: 3, seconds: 5, connections: 50 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in options) || !Number(argv[i + 1])) throw new Error('usage: node bench/static.js [--rounds 3] [--seconds 5] [--connections 50]');
    options[key] = Number(argv[i + 1]);
  }
  return options;
}

/** A folder with app.css (2 KB) and app.js (100 KB) of plausible text. */
function writeFiles(dir) {
  const css = Array.from({ length: 64 }, (_, i) => `.c${i} { margin: ${i}px; }\n`).join('');
  const js = Array.from({ length: 4000 }, (_, i) => `export const v${i} = ${i} * 2;\n`).join('');
  fs.writeFileSync(path.join(dir, 'app.css'), css.padEnd(2048, ' '));
  fs.writeFileSync(path.join(dir, 'app.js'), js.slice(0, 100 * 1024));
}

/** One GET wrk script per request (measureCell runs wrk with a script). */
function writeScripts(dir) {
  const scripts = {};
  for (const r of REQUESTS) {
    scripts[r.id] = path.join(dir, `${r.id}.lua`);
    fs.writeFileSync(scripts[r.id], `wrk.method = "GET"\nwrk.path = ${JSON.stringify(r.path)}\n`);
  }
  return scripts;
}

/** Every contender answers every request with 200 and the same body; resolves to the body sizes. */
async function check(pin, env) {
  const bodies = {};
  for (const c of CONTENDERS) {
    const server = await startServer(c, pin, { readyPath: '/static/app.css', env });
    try {
      for (const r of REQUESTS) {
        const answer = await request(server.port, { path: r.path });
        if (answer.status !== 200) throw new Error(`${c.id}: GET ${r.path} answered ${answer.status}`);
        if (bodies[r.id] !== undefined && bodies[r.id] !== answer.text) throw new Error(`${c.id}: GET ${r.path} answered other bytes`);
        bodies[r.id] = answer.text;
      }
    } finally {
      await server.stop();
    }
  }
  return Object.fromEntries(REQUESTS.map((r) => [r.id, Buffer.byteLength(bodies[r.id])]));
}

async function main() {
  const options = parse(process.argv.slice(2));
  assertWrk();
  const pin = pinning();
  pinSelf(pin);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-static-bench-'));
  const staticDir = path.join(workDir, 'files');
  fs.mkdirSync(staticDir);
  writeFiles(staticDir);
  const env = { STATIC_DIR: staticDir };
  const cells = {};
  let sizes;
  try {
    sizes = await check(pin, env);
    const context = {
      pin,
      settings: { warmupSeconds: 1, measureSeconds: options.seconds, connections: options.connections },
      scripts: writeScripts(workDir),
    };
    let shift = 0;
    for (let round = 0; round < options.rounds; round++) {
      for (const r of REQUESTS) {
        for (const c of rotate(CONTENDERS, shift++)) {
          const cell = await measureCell({ ...c, env, readyPath: '/static/app.css' }, r, context);
          ((cells[r.id] ??= {})[c.id] ??= []).push(cell);
          process.stderr.write(`round ${round + 1} ${r.label.padEnd(32)} ${c.id.padEnd(8)} ${Math.round(cell.rps)} req/s, ` +
            `p99 ${cell.p99.toFixed(2)} ms, ${cell.cpuUs.toFixed(1)} µs CPU/req${cell.wrong ? `, ${cell.wrong} wrong status` : ''}\n`);
        }
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  report(options, pin, sizes, cells);
}

function report(options, pin, sizes, cells) {
  const m = machine(pin);
  const out = [
    '# Static files and a docs asset: trellis against express.static',
    '',
    `Command: \`node bench/static.js --rounds ${options.rounds} --seconds ${options.seconds} --connections ${options.connections}\`, ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `${m.cpu}, ${m.cores} cores, node ${m.node}; server on core 0, wrk (1 thread, ${options.connections} connections) on core 1` +
      `${pin.pinned ? '' : ' (NOT pinned: taskset or a second core missing)'}; ${options.rounds} rounds of ${options.seconds} s per cell ` +
      'after 1 s of warm-up, a fresh process per cell, contenders alternating. Medians (min-max); ratios to express.static.',
    'Fastify with @fastify/static: not measured (not among bench/package.json\'s peers).',
    '',
    'Server core busy = CPU µs/req x req/s: well under 100 % means the server waited (on wrk, which reads every',
    'body on one core, or on other work on the machine), so that cell measures the load generator, not the server.',
    '',
    '| request | contender | req/s | vs express.static | p99 ms | server CPU µs/req | server core busy | wrong status |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of REQUESTS) {
    const base = median(cells[r.id][BASELINE].map((c) => c.rps));
    for (const c of CONTENDERS) {
      const list = cells[r.id][c.id];
      const rps = list.map((cell) => cell.rps);
      const wrong = list.reduce((sum, cell) => sum + cell.wrong + cell.socketErrors, 0);
      const busy = median(list.map((cell) => (cell.cpuUs * cell.rps) / 1e4));
      out.push(`| ${r.label.replace(/ \(.*\)$/, '')} (${(sizes[r.id] / 1024).toFixed(1)} KiB) | ${c.label} | ` +
        `${fmt(median(rps))} (${fmt(Math.min(...rps))}-${fmt(Math.max(...rps))}) | ${ratio(median(rps), base).toFixed(2)} | ` +
        `${median(list.map((cell) => cell.p99)).toFixed(2)} | ${median(list.map((cell) => cell.cpuUs)).toFixed(1)} | ` +
        `${busy.toFixed(0)} % | ${wrong} |`);
    }
  }
  console.log(out.join('\n'));
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}

module.exports = { check, writeFiles, REQUESTS, CONTENDERS };
