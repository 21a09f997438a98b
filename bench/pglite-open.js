#!/usr/bin/env node
'use strict';
// Where the embedded database's start goes: in a fresh node process each time, the wall and CPU time of loading
// @electric-sql/pglite, of opening an existing (migrated) data folder up to `waitReady`, and of the first query,
// beside a plain `node -e 0`. `node bench/pglite-open.js [--runs 5]`. Explains the start the --db sample adds
// (bench/database.js measures that start end to end). The wasm is compiled once on its own first, to show its share.
const { execFileSync, spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const root = join(__dirname, '..');

const probe = `
const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const cpu = (c) => { const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
const { PGlite } = require('@electric-sql/pglite');
const loaded = { wall: ms(t0), cpu: cpu(c0) };
(async () => {
  const tw = process.hrtime.bigint(), cw = process.cpuUsage();
  await WebAssembly.compile(require('node:fs').readFileSync(require.resolve('@electric-sql/pglite').replace(/[^/]+$/, 'pglite.wasm')));
  const compiled = { wall: ms(tw), cpu: cpu(cw) };
  const t1 = process.hrtime.bigint(), c1 = process.cpuUsage();
  const db = new PGlite(process.argv[1]);
  await db.waitReady;
  const opened = { wall: ms(t1), cpu: cpu(c1) };
  const t2 = process.hrtime.bigint(), c2 = process.cpuUsage();
  await db.query('select count(*) from tasks');
  const query = { wall: ms(t2), cpu: cpu(c2) };
  const t3 = process.hrtime.bigint();
  await db.close();
  console.log(JSON.stringify({ loaded, compiled, opened, query, close: ms(t3) }));
})();`;

const dir = mkdtempSync(join(tmpdir(), 'trellis-pglite-open-'));
const data = join(dir, 'db');
execFileSync(process.execPath, ['-e', `
const { PGlite } = require('@electric-sql/pglite');
(async () => { const db = new PGlite(process.argv[1]); await db.exec("create table tasks (id serial primary key, title text); insert into tasks (title) values ('a'), ('b')"); await db.close(); })();`, data], { cwd: root });

const rows = [];
for (let i = 0; i < runs; i++) {
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  const nodeOnly = Number(process.hrtime.bigint() - t) / 1e6;
  const out = execFileSync(process.execPath, ['-e', probe, data], { cwd: root, encoding: 'utf8' });
  rows.push({ nodeOnly, ...JSON.parse(out) });
}
rmSync(dir, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const show = (label, pick) => console.log(`${label.padEnd(44)} ${median(rows.map(pick)).toFixed(0).padStart(6)} ms`);
console.log(`PGlite ${JSON.parse(require('node:fs').readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version}, node ${process.version}, median of ${runs} fresh processes`);
show('node -e 0 (wall)', (r) => r.nodeOnly);
show("require('@electric-sql/pglite') wall", (r) => r.loaded.wall);
show("require('@electric-sql/pglite') CPU", (r) => r.loaded.cpu);
show('compiling pglite.wasm alone, first, wall', (r) => r.compiled.wall);
show('new PGlite(existing folder) to waitReady, wall', (r) => r.opened.wall);
show('new PGlite(existing folder) to waitReady, CPU', (r) => r.opened.cpu);
show('first query, wall', (r) => r.query.wall);
show('close, wall', (r) => r.close);
