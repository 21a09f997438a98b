#!/usr/bin/env node
'use strict';
// One request's observation for /metrics, in one process: prom-client's own Histogram and Counter (`observe` and
// `inc` with the request's labels, as fastify-metrics and express-prom-bundle do; a `labels()` child does the same
// work, it only keeps the label object), prom-client's Histogram alone (the count read from its `_count`), and
// trellis's tallies (framework/metrics/request-tallies.ts: three map lookups and a few additions, handed to
// prom-client's registry only when it is scraped). The clock reads and the `close` listener a tracked request
// also pays are the same for all and timed apart. Blocks of 200,000 observations over 3 routes x 2 statuses,
// the variants interleaved; the minimum and median of the blocks.
//
//   taskset -c 0 node bench/micro/metrics-observe.js [rounds, default 40]
require('../../register.js');
const { EventEmitter } = require('node:events');
const { Counter, Histogram, Registry } = require('prom-client');
const { DEFAULT_BUCKETS } = require('../../framework/metrics/options');
const { RequestTallies } = require('../../framework/metrics/request-tallies');

const labelNames = ['method', 'route', 'status_code'];
const registry = new Registry();
const histogram = new Histogram({ name: 'h', help: 'h', labelNames, buckets: [...DEFAULT_BUCKETS], registers: [registry] });
const counter = new Counter({ name: 'c', help: 'c', labelNames, registers: [registry] });
const alone = new Histogram({ name: 'h2', help: 'h', labelNames, buckets: [...DEFAULT_BUCKETS], registers: [registry] });
const tallies = new RequestTallies(DEFAULT_BUCKETS);

const ROUTES = ['/tasks/{task_id}', '/tasks', '/products/search'];
const STATUSES = [200, 404];
const seconds = (i) => 0.0002 + (i & 15) * 0.0004;

const variants = {
  'prom-client Histogram + Counter': (i) => {
    const labels = { method: 'GET', route: ROUTES[i % 3], status_code: STATUSES[i & 1] };
    histogram.observe(labels, seconds(i));
    counter.inc(labels);
  },
  'prom-client Histogram alone': (i) => alone.observe({ method: 'GET', route: ROUTES[i % 3], status_code: STATUSES[i & 1] }, seconds(i)),
  'trellis tallies': (i) => tallies.observe(ROUTES[i % 3], 'GET', STATUSES[i & 1], seconds(i)),
  'clock reads + close listener': () => {
    const res = new EventEmitter();
    const start = performance.now();
    res.on('close', () => performance.now() - start);
    res.emit('close');
  },
  'an EventEmitter emitting close (baseline of the above)': () => new EventEmitter().emit('close'),
};

const N = 200_000;
function block(fn) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn(i);
  return Number(process.hrtime.bigint() - started) / N;
}

const rounds = Number(process.argv[2] ?? 40);
const results = {};
for (let round = 0; round < rounds; round++) for (const [name, fn] of Object.entries(variants)) (results[name] ??= []).push(block(fn));
const at = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
for (const [name, list] of Object.entries(results)) {
  console.log(`${name.padEnd(54)} ns: min ${Math.min(...list).toFixed(0).padStart(5)}  median ${at(list, 0.5).toFixed(0).padStart(5)}`);
}
