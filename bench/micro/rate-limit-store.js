#!/usr/bin/env node
'use strict';
// One hit of memoryStore() (framework/rate-limit/memory-store.ts) at its default bound of 100,000 keys, clients
// cycling over 1k, 100k and 1M distinct addresses (issue 40): below the bound each hit counts a key the store holds;
// at 100k it holds them all; at 1M each hit is a key dropped 100k hits ago, so the store starts a window and drops
// the oldest. Each hit builds its key as the limiter does (`default:a:10.x.y.z`, a new string per request) and
// reads `Date.now`. Beside them: the key built and hashed alone (a lookup in a map of one key), and a Map alone
// doing the 1M variant's lookups, deletes and sets (the floor under it). Windows of 1 h: none ends while it runs.
// Blocks of 100,000 hits, the variants interleaved, each on its own store kept between blocks; CPU ns per hit (GC
// included), minimum and median of the blocks, and each median against the 1k one. Then the heap a store holds
// after a full GC once 100k keys, then 1M keys, went through it. `--from` loads memoryStore from another file (an
// older copy of memory-store.ts, to compare).
//
//   taskset -c 1 node bench/micro/rate-limit-store.js [rounds, default 30] [--from path/to/memory-store.ts]
require('../../register.js');
const v8 = require('node:v8');
const vm = require('node:vm');
const { resolve } = require('node:path');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const fromAt = process.argv.indexOf('--from');
const from = fromAt === -1 ? '../../framework/rate-limit/memory-store' : resolve(process.argv[fromAt + 1]);
const { memoryStore } = require(from);
const positional = process.argv.slice(2).filter((arg, i, all) => arg !== '--from' && all[i - 1] !== '--from');
const rounds = Number(positional[0] ?? 30);

const WINDOW = 3_600_000;
const N = 100_000;
// As the limiter builds it: the counter's name and `:a:` before the address (a flat string, as a socket's is).
const addressOf = (i) => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
const keyOf = (i) => `default:a:${addressOf(i)}`;

function cycling(distinct) {
  const store = memoryStore();
  let i = 0;
  // Fills the store to its steady state before the first timed block.
  for (let warm = 0; warm < Math.min(distinct, 200_000) + N; warm++) store.hit(keyOf(i++ % distinct), WINDOW);
  return () => store.hit(keyOf(i++ % distinct), WINDOW).count;
}

let sink = 0;
const variants = {
  '1k keys (below the bound)': cycling(1_000),
  '100k keys (at the bound)': cycling(100_000),
  '1M keys (10x past the bound)': cycling(1_000_000),
  // The floor under the 1M variant: a Map alone doing what the store does there (a lookup that misses, the oldest
  // key deleted, the new one set and kept), without windows, clock or answer.
  'a Map alone, 1M keys (floor)': (() => {
    const map = new Map();
    const order = new Array(100_000);
    let i = 0;
    const hit = () => {
      const key = keyOf(i++ % 1_000_000);
      const count = map.get(key);
      if (count !== undefined) return map.set(key, count + 1), count + 1;
      const at = i % 100_000;
      if (map.size === 100_000) map.delete(order[at]);
      order[at] = key;
      map.set(key, 1);
      return 1;
    };
    for (let warm = 0; warm < 300_000; warm++) hit();
    return hit;
  })(),
  // What every variant pays outside the store: the key built, then hashed (a lookup in a map of one key).
  'the key, built and hashed': (() => {
    const one = new Map([[keyOf(0), 1]]);
    let i = 0;
    return () => one.get(keyOf(i++ % 1_000_000)) ?? 0;
  })(),
};

// CPU time of the process (GC included), not wall time: others' work on the core does not count.
function block(fn) {
  const started = process.cpuUsage();
  for (let i = 0; i < N; i++) sink += fn();
  const { user, system } = process.cpuUsage(started);
  return ((user + system) * 1000) / N;
}

const results = {};
for (let round = 0; round < rounds; round++) for (const [name, fn] of Object.entries(variants)) (results[name] ??= []).push(block(fn));
const at = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
const below = at(results['1k keys (below the bound)'], 0.5);
for (const [name, list] of Object.entries(results)) {
  const median = at(list, 0.5);
  console.log(`${name.padEnd(30)} ns per hit: min ${Math.min(...list).toFixed(0).padStart(6)}  median ${median.toFixed(0).padStart(6)}  (x${(median / below).toFixed(2)} of below the bound)`);
}

function heapHeld(distinct) {
  const store = memoryStore();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < distinct; i++) store.hit(keyOf(i), WINDOW);
  gc();
  gc();
  const held = process.memoryUsage().heapUsed - before;
  sink += store.size;
  return { held, size: store.size };
}

for (const variant of Object.keys(variants)) delete variants[variant];
gc();
for (const distinct of [100_000, 1_000_000]) {
  const { held, size } = heapHeld(distinct);
  console.log(`heap held after ${String(distinct).padStart(9)} keys: ${(held / 2 ** 20).toFixed(1).padStart(5)} MiB, ${size} keys (${(held / size).toFixed(0)} bytes a key)`);
}
if (sink === 0.5) console.log(sink);
