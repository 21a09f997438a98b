'use strict';
// What building a DTO instance from a parsed JSON body costs, before and after issue 15's instance builder.
//
//   taskset -c 0 node --require ./register.js bench/micro/instance-builder.js [--rounds 15] [--iterations 50000]
//
//   transformer  trellis before: pruner(cls) (declared keys only), class-transformer's plainToInstance, the patch
//   builder      framework/pipeline/instance.ts instanceBuilder(cls): the same instance without class-transformer
// Bodies: bench/apps/shared/task-in.ts's TaskIn (flat) and bench/micro/instance-dtos.ts's OrderIn (an address and
// three lines, two with an address of their own). Variants are interleaved in one process: every round runs each
// once, in a rotated order; medians of CPU ns per body are printed, with the builder's share of the transformer's.
const assert = require('node:assert/strict');
const { plainToInstance } = require('class-transformer');
const { pruner } = require('../../framework/pipeline/declared-shape');
const { buildsWithoutTransformer, instanceBuilder } = require('../../framework/pipeline/instance');
const { TaskIn } = require('../apps/shared/task-in');
const { OrderIn } = require('./instance-dtos');
const { median, rotate } = require('../lib/stats');

const address = (city) => ({ street: '1 Main St', city, zip: '12345' });
/** @type {Array<[string, new (...args: any[]) => object, object]>} */
const BODIES = [
  ['TaskIn', TaskIn, { title: 'Write the report', description: 'before Friday', completed: false }],
  ['TaskIn + 3 undeclared', TaskIn, { title: 'Write', completed: true, a: 1, b: [2], c: { d: 3 } }],
  ['OrderIn (nested)', OrderIn, {
    reference: 'A-1042',
    note: 'leave at the door',
    address: address('Delft'),
    lines: [
      { sku: 'LAMP-1', quantity: 1, shipTo: address('Leiden') },
      { sku: 'BULB-4', quantity: 4 },
      { sku: 'CORD-2', quantity: 2, shipTo: address('Gouda') },
    ],
  }],
];

const VARIANTS = {
  transformer(cls) {
    const prune = pruner(cls);
    return (plain) => {
      const { input, patch } = prune(plain);
      const instance = plainToInstance(cls, input);
      patch?.(instance);
      return instance;
    };
  },
  builder: (cls) => instanceBuilder(cls),
};

let sink;
function time(build, body, iterations) {
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) sink = build(body);
  const { user, system } = process.cpuUsage(started);
  return ((user + system) * 1000) / iterations;
}

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const rounds = option('--rounds', 15);
const iterations = option('--iterations', 50_000);
const variants = Object.keys(VARIANTS);
const cases = BODIES.map(([label, cls, body]) => {
  assert.ok(buildsWithoutTransformer(cls), `${label}: built without class-transformer`);
  const builds = Object.fromEntries(variants.map((v) => [v, VARIANTS[v](cls)]));
  // The same instance both ways (JSON shows own enumerable properties; prototypes checked at the top).
  const [a, b] = variants.map((v) => builds[v](body));
  assert.equal(Object.getPrototypeOf(a), Object.getPrototypeOf(b));
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  return { label, body, builds, ns: Object.fromEntries(variants.map((v) => [v, /** @type {number[]} */ ([])])) };
});
for (const c of cases) for (const v of variants) time(c.builds[v], c.body, iterations); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const v of rotate(variants, r)) for (const c of cases) c.ns[v].push(time(c.builds[v], c.body, iterations));
}

console.log(`node ${process.version}, class-transformer ${require('class-transformer/package.json').version}, ` +
  `${rounds} rounds x ${iterations} bodies per case, median CPU ns per body\n`);
console.log('| body | transformer (before) | builder | builder / transformer |');
console.log('|---|---:|---:|---:|');
for (const c of cases) {
  const t = median(c.ns.transformer);
  const b = median(c.ns.builder);
  console.log(`| ${c.label} | ${t.toFixed(0)} | ${b.toFixed(0)} | ${(b / t).toFixed(3)} |`);
}
void sink;
