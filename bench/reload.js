#!/usr/bin/env node
'use strict';
// What a reload of `trellis run --reload` costs the clients of the app (issue 13): a copy of the run tests'
// `healthy` fixture served with --reload, a steady stream of GET /tasks from --streams clients, each request
// on a new connection (as a load balancer or a browser opening one), and --reloads edits of routers/extra.ts
// (every other one a rename-style save, as `sed -i` and editors' safe-write do). For each edit: the time
// from the write to the first answer of the new version. For the stream: every request's outcome (200, a
// refused connection, a reset one, anything else) and the longest time without any 200.
//
//   node bench/reload.js [--checkout DIR] [--reloads 20] [--streams 4] [--workers 1] [--saves both] [--keep-alive]
//
// --checkout: the trellis checkout whose CLI serves (default: this one), e.g. an export of an older commit:
//   git archive <commit> | tar -x -C /tmp/trellis-base && ln -s "$PWD/node_modules" /tmp/trellis-base/
// --saves: `both` (default: in place and rename-style, alternately), `in-place` or `rename`.
// --keep-alive: the clients keep their connections (one keep-alive agent per stream) instead.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

function parse(argv) {
  const options = { checkout: path.join(__dirname, '..'), reloads: 20, streams: 4, workers: 1, saves: 'both', keepAlive: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--keep-alive') {
      options.keepAlive = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--checkout') options.checkout = path.resolve(value);
    else if (flag === '--reloads') options.reloads = Number(value);
    else if (flag === '--streams') options.streams = Number(value);
    else if (flag === '--workers') options.workers = Number(value);
    else if (flag === '--saves' && ['both', 'in-place', 'rename'].includes(value)) options.saves = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!fs.existsSync(path.join(options.checkout, 'bin', 'trellis.js'))) throw new Error(`--checkout ${options.checkout}: not a trellis checkout`);
  return options;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A router at /extra answering `value`. */
const extra = (value) =>
  `import { Get, router } from 'trellis';\nexport class ExtraRouter extends router('/extra') {\n  @Get() list() { return ${JSON.stringify(value)}; }\n}\n`;

/** GET `url` on `agent` (false: a new connection): `200`, `status N`, or `error CODE`, with the text. */
function get(url, agent) {
  /** @param {NodeJS.ErrnoException} error */
  const failure = (error) => `error ${error.code ?? error.message}`;
  return new Promise((resolve) => {
    const req = http.request(url, { agent }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ outcome: res.statusCode === 200 ? '200' : `status ${res.statusCode}`, text }));
      res.on('error', (error) => resolve({ outcome: failure(error), text }));
    });
    req.setTimeout(10_000, () => req.destroy(Object.assign(new Error('no answer in 10 s'), { code: 'TIMEOUT' })));
    req.on('error', (error) => resolve({ outcome: failure(error), text: '' }));
    req.end();
  });
}

async function main() {
  const options = parse(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trellis-reload-bench-'));
  fs.cpSync(path.join(__dirname, '..', 'runtime', 'tests', 'fixtures', 'healthy'), dir, { recursive: true });
  const file = path.join(dir, 'routers', 'extra.ts');
  fs.writeFileSync(file, extra('v0'));

  const args = [path.join(options.checkout, 'bin', 'trellis.js'), 'run', '.', '--port', '0', '--reload', '--no-access-log', '--workers', String(options.workers)];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  try {
    for (let i = 0; i < 600 && !/for a more detailed analysis/.test(stdout); i++) await pause(50);
    const url = stdout.match(/Running app .+ on (http:\/\/\S+)/)?.[1];
    if (!url) throw new Error(`no banner:\n${stdout}\n${stderr}`);

    const outcomes = new Map();
    let lastOk = performance.now();
    let longestGap = 0;
    let streaming = true;
    const stream = async () => {
      const agent = options.keepAlive ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
      while (streaming) {
        const { outcome } = await get(`${url}/tasks`, agent);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        const now = performance.now();
        if (outcome === '200') {
          longestGap = Math.max(longestGap, now - lastOk);
          lastOk = now;
        }
        await pause(2);
      }
      if (agent) agent.destroy();
    };
    const streams = Array.from({ length: options.streams }, stream);

    /** @type {number[]} */
    const reloadMs = [];
    for (let n = 1; n <= options.reloads; n++) {
      await pause(300); // a steady stream between edits
      const version = `v${n}`;
      const started = performance.now();
      if (options.saves === 'rename' || (options.saves === 'both' && n % 2 === 0)) {
        const temporary = path.join(dir, 'routers', `sed${n}`);
        fs.writeFileSync(temporary, extra(version));
        fs.renameSync(temporary, file);
      } else fs.writeFileSync(file, extra(version));
      let answer = '';
      while (answer !== JSON.stringify(version) && performance.now() - started < 60_000) {
        answer = (await get(`${url}/extra`, false)).text;
        if (answer !== JSON.stringify(version)) await pause(20);
      }
      if (answer !== JSON.stringify(version)) throw new Error(`reload ${n}: the new version never answered within 60 s (stale?); last answer: ${answer}`);
      reloadMs.push(performance.now() - started);
    }
    streaming = false;
    await Promise.all(streams);

    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    const refused = outcomes.get('error ECONNREFUSED') ?? 0;
    const failed = total - (outcomes.get('200') ?? 0);
    const sorted = [...reloadMs].sort((a, b) => a - b);
    const checkout = path.relative(process.cwd(), options.checkout) || '.';
    const connections = options.keepAlive ? 'keep-alive' : 'a new connection per request';
    console.log(`checkout ${checkout}, ${options.reloads} reloads (saves: ${options.saves}), ${options.streams} streams, --workers ${options.workers}, ${connections}`);
    console.log('| requests | 200 | refused | other failures | longest time without a 200 | write to new version: median | max |');
    console.log('|---:|---:|---:|---|---:|---:|---:|');
    const others = [...outcomes].filter(([outcome]) => outcome !== '200' && outcome !== 'error ECONNREFUSED').map(([o, c]) => `${c} ${o}`).join(', ') || '0';
    console.log(
      `| ${total} | ${outcomes.get('200') ?? 0} | ${refused} | ${others} | ${longestGap.toFixed(0)} ms | ` +
        `${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms | ${sorted[sorted.length - 1].toFixed(0)} ms |`,
    );
    process.exitCode = failed === 0 ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
