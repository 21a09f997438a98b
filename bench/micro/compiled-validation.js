'use strict';
// What compiled DTO validation (framework/pipeline/compiled) saves per request body against class-validator.
//
//   taskset -c 0 node --require ./register.js bench/micro/compiled-validation.js [--rounds 15] [--iterations 20000]
//
// The bench apps' TaskIn (bench/apps/shared/task-in.ts) and the sample project's DTOs (blueprints/project/routers),
// a valid and an invalid body each, through what trellis does to a JSON body (prune to the declared keys,
// plainToInstance, validate, collect the details), awaited from an async function as the body extractor
// (framework/pipeline/arguments.ts) awaits it. Variants, interleaved in one process (every round runs each once,
// in a rotated order; medians are printed):
//   build            prune + plainToInstance only (what both validators share; helper INST replaces it)
//   class-validator  build + class-validator's validate({ whitelist, forbidUnknownValues }) + collect
//   compiled         build + compileRules(cls).check, synchronous
// The validation step itself is a variant minus `build`.
const { plainToInstance } = require('class-transformer');
const { validate } = require('class-validator');
const { pruner } = require('../../framework/pipeline/declared-shape');
const { compileRules } = require('../../framework/pipeline/compiled');
const { joinField } = require('../../framework/pipeline/compiled/fields');
const { TaskIn: BenchTaskIn } = require('../apps/shared/task-in');
const { TaskIn } = require('../../blueprints/project/routers/tasks');
const { ProductIn } = require('../../blueprints/project/routers/products');
const { UserIn } = require('../../blueprints/project/routers/users');
const { median, rotate } = require('../lib/stats');
const { option, time } = require('./timing');

const OPTIONS = { whitelist: true, forbidUnknownValues: true, validationError: { target: false, value: false } };

const BODIES = [
  ['bench TaskIn valid', BenchTaskIn, { title: 'Write the report', description: 'before Friday', completed: false }],
  ['bench TaskIn invalid', BenchTaskIn, { title: '', completed: 'no', extra: 1 }],
  ['sample TaskIn valid', TaskIn, { title: 'Write the report', description: 'before Friday', completed: false }],
  ['sample TaskIn invalid', TaskIn, { title: '', completed: 'no', extra: 1 }],
  ['ProductIn valid', ProductIn, { name: 'Lamp', price: 25.5, description: 'A desk lamp', tags: ['home', 'light'] }],
  ['ProductIn invalid', ProductIn, { name: 'Lamp', price: -1, tags: ['', 'x'.repeat(40)] }],
  ['UserIn valid', UserIn, { name: 'Ada', email: 'ada@example.com', age: 36 }],
  ['UserIn invalid', UserIn, { name: 'Ada', email: 'not-an-email', age: 7 }],
];

function builder(cls) {
  const prune = pruner(cls);
  return (value) => {
    const { input, patch } = prune(value);
    const instance = plainToInstance(cls, input);
    patch?.(instance);
    return instance;
  };
}

const VARIANTS = {
  build(cls) {
    const build = builder(cls);
    return (value) => build(value);
  },
  'class-validator'(cls) {
    const build = builder(cls);
    return (value, details) => {
      const instance = build(value);
      return validate(instance, OPTIONS).then((errors) => {
        for (const error of errors) collect(error, '', details);
        return instance;
      });
    };
  },
  compiled(cls) {
    const build = builder(cls);
    const rules = compileRules(cls);
    if (rules.kind !== 'compiled') throw new Error(`${cls.name} fell back: ${rules.reason}`);
    return (value, details) => {
      const instance = build(value);
      rules.check(instance, '', details);
      return instance;
    };
  },
};

function collect(error, prefix, details) {
  const field = joinField(prefix, error.property);
  for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field, message });
  for (const child of error.children ?? []) collect(child, field, details);
}

async function main() {
  const rounds = option('--rounds', 15);
  const iterations = option('--iterations', 20_000);
  const variants = Object.keys(VARIANTS);
  const cases = BODIES.map(([label, cls, body]) => ({
    label,
    body,
    runs: Object.fromEntries(variants.map((v) => [v, VARIANTS[v](cls)])),
    ns: Object.fromEntries(variants.map((v) => [v, /** @type {number[]} */ ([])])),
  }));

  // Both validators give the same details before timing.
  for (const c of cases) {
    const answers = [];
    for (const v of ['class-validator', 'compiled']) {
      const details = [];
      await c.runs[v](c.body, details);
      answers.push(JSON.stringify(details));
    }
    if (answers[0] !== answers[1]) throw new Error(`${c.label}: validators disagree: ${answers.join(' / ')}`);
  }
  for (const c of cases) for (const v of variants) await time(c.runs[v], c.body, iterations); // warm-up

  for (let r = 0; r < rounds; r++) {
    for (const v of rotate(variants, r)) for (const c of cases) c.ns[v].push(await time(c.runs[v], c.body, iterations));
  }

  console.log(`node ${process.version}, class-validator ${require('class-validator/package.json').version}, ` +
    `${rounds} rounds x ${iterations} bodies per case, median CPU ns per body (awaited)\n`);
  console.log('| body | build | class-validator | compiled | validation step: class-validator -> compiled |');
  console.log('|---|---:|---:|---:|---:|');
  for (const c of cases) {
    const m = Object.fromEntries(variants.map((v) => [v, median(c.ns[v])]));
    const before = m['class-validator'] - m.build;
    const after = m.compiled - m.build;
    console.log(`| ${c.label} | ${m.build.toFixed(0)} | ${m['class-validator'].toFixed(0)} | ${m.compiled.toFixed(0)} | ` +
      `${before.toFixed(0)} -> ${after.toFixed(0)} (${(before / Math.max(after, 1)).toFixed(1)}x) |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
