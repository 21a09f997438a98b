'use strict';
// What class-validator's private ValidationExecutor shortcut saves per request body, against its public API.
//
//   node --require ./register.js bench/micro/validation-executor.js [--rounds 15] [--iterations 20000]
//
// The sample project's DTOs (blueprints/project/routers: TaskIn, ProductIn, UserIn) with a valid and an invalid
// body each, through what trellis does to a JSON body (prune to the declared keys, plainToInstance, validate with
// whitelist/forbidUnknownValues, collect the details) and awaited from an async function as the body extractor
// (framework/pipeline/arguments.ts) awaits it. Only the validate step differs:
//   shortcut      new ValidationExecutor(...).execute(), no promise unless a rule made one (trellis before issue 12)
//   validate      class-validator's public validate(): always Promise.all(awaitingPromises).then(...)
//   validateSync  public validateSync(): for reference only (it drops the answer of a rule that returns a promise
//                 without being declared async, so it is not a replacement)
// Variants are interleaved in one process: every round runs each once, in a rotated order; medians are printed.
const { plainToInstance } = require('class-transformer');
const { validate, validateSync, Validator } = require('class-validator');
const { pruner } = require('../../framework/pipeline/declared-shape');
const { TaskIn } = require('../../blueprints/project/routers/tasks');
const { ProductIn } = require('../../blueprints/project/routers/products');
const { UserIn } = require('../../blueprints/project/routers/users');
const { median, rotate } = require('../lib/stats');
const { option, time } = require('./timing');

const OPTIONS = { whitelist: true, forbidUnknownValues: true, validationError: { target: false, value: false } };

// The private module the shortcut loads (class-validator 0.14's CommonJS build).
const { ValidationExecutor } = require('class-validator/cjs/validation/ValidationExecutor');
const validator = new Validator();

const VALIDATE = {
  shortcut(instance) {
    const executor = new ValidationExecutor(validator, OPTIONS);
    const errors = [];
    executor.execute(instance, undefined, errors);
    if (executor.awaitingPromises.length === 0) return executor.stripEmptyErrors(errors);
    return Promise.all(executor.awaitingPromises).then(() => executor.stripEmptyErrors(errors));
  },
  validate: (instance) => validate(instance, OPTIONS),
  validateSync: (instance) => validateSync(instance, OPTIONS),
};

const BODIES = [
  ['TaskIn valid', TaskIn, { title: 'Write the report', description: 'before Friday', completed: false }],
  ['TaskIn invalid', TaskIn, { title: '', completed: 'no', extra: 1 }],
  ['ProductIn valid', ProductIn, { name: 'Lamp', price: 25.5, description: 'A desk lamp', tags: ['home', 'light'] }],
  ['ProductIn invalid', ProductIn, { name: 'Lamp', price: -1, tags: ['', 'x'.repeat(40)] }],
  ['UserIn valid', UserIn, { name: 'Ada', email: 'ada@example.com', age: 36 }],
  ['UserIn invalid', UserIn, { name: 'Ada', email: 'not-an-email', age: 7 }],
];

/** trellis's body-to-instance step (framework/pipeline/validate.ts compileValidator) with `check` as its validate. */
function toValidInstance(cls, check) {
  const prune = pruner(cls);
  return (value, details) => {
    const { input, patch } = prune(value);
    const instance = plainToInstance(cls, input);
    patch?.(instance);
    const errors = check(instance);
    if (!(errors instanceof Promise)) {
      collectAll(errors, details);
      return instance;
    }
    return errors.then((found) => {
      collectAll(found, details);
      return instance;
    });
  };
}

function collectAll(errors, details) {
  for (const error of errors) {
    for (const message of Object.values(error.constraints ?? {})) details.push({ field: error.property, message });
    if (error.children?.length) collectAll(error.children, details);
  }
}

async function main() {
  const rounds = option('--rounds', 15);
  const iterations = option('--iterations', 20_000);
  const variants = Object.keys(VALIDATE);
  const cases = BODIES.map(([label, cls, body]) => ({
    label,
    body,
    runs: Object.fromEntries(variants.map((v) => [v, toValidInstance(cls, VALIDATE[v])])),
    ns: Object.fromEntries(variants.map((v) => [v, /** @type {number[]} */ ([])])),
  }));

  // Same answers from every variant before timing.
  for (const c of cases) {
    const answers = [];
    for (const v of variants) {
      const details = [];
      await c.runs[v](c.body, details);
      answers.push(JSON.stringify(details));
    }
    if (new Set(answers).size !== 1) throw new Error(`${c.label}: variants disagree: ${answers.join(' / ')}`);
  }
  for (const c of cases) for (const v of variants) await time(c.runs[v], c.body, iterations); // warm-up

  for (let r = 0; r < rounds; r++) {
    for (const v of rotate(variants, r)) for (const c of cases) c.ns[v].push(await time(c.runs[v], c.body, iterations));
  }

  console.log(`node ${process.version}, class-validator ${require('class-validator/package.json').version}, ` +
    `${rounds} rounds x ${iterations} bodies per case, median CPU ns per body (awaited)\n`);
  console.log('| body | shortcut | validate (public) | validateSync (ref.) | validate - shortcut |');
  console.log('|---|---:|---:|---:|---:|');
  const sums = Object.fromEntries(variants.map((v) => [v, 0]));
  for (const c of cases) {
    const m = Object.fromEntries(variants.map((v) => [v, median(c.ns[v])]));
    for (const v of variants) sums[v] += m[v];
    const diff = m.validate - m.shortcut;
    console.log(`| ${c.label} | ${m.shortcut.toFixed(0)} | ${m.validate.toFixed(0)} | ${m.validateSync.toFixed(0)} | ` +
      `${diff >= 0 ? '+' : ''}${diff.toFixed(0)} (${((diff / m.shortcut) * 100).toFixed(1)} %) |`);
  }
  const n = cases.length;
  const diff = (sums.validate - sums.shortcut) / n;
  console.log(`| mean | ${(sums.shortcut / n).toFixed(0)} | ${(sums.validate / n).toFixed(0)} | ` +
    `${(sums.validateSync / n).toFixed(0)} | ${diff >= 0 ? '+' : ''}${diff.toFixed(0)} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
