import fc from 'fast-check';

// JSON values for validation-equivalence.test.ts. Objects are built as key-value lists (JsonObject) and rendered to
// JSON text, so that a body can hold what a JS object literal cannot: a `__proto__` own key (JSON.parse makes
// one), a repeated key, and -0 (JSON.stringify writes 0).

/** A JSON object as the entries of its text, in order (repeats allowed). */
export class JsonObject {
  constructor(readonly entries: Array<[string, unknown]>) {}
  [fc.toStringMethod](): string {
    return renderJson(this);
  }
}

/**
 * JSON text of a value whose objects are {@link JsonObject}s (plain arrays, strings, finite numbers, booleans, null).
 *
 * @example
 * ```ts
 * renderJson(new JsonObject([['__proto__', -0]])); // '{"__proto__":-0}'
 * ```
 */
export function renderJson(value: unknown): string {
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${renderJson(item)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(renderJson).join(',')}]`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

/** Strings that trip validators and message templates: empty, blank, numeric-looking, astral, combining, `$` patterns. */
export const STRINGS = [
  '', ' ', 'a', 'abc', 'Abc', 'ABC', 'hello world', 'skip', '0', '12', '-3', '1.5', '1e3', ' 7', 'true', 'null',
  '$&', '$property', '$value', '$$', "$'", '😀', '😀😀', 'e\u0301', '\u0000', 'a\nb', 'x'.repeat(41), 'abc123',
];

/** Numbers around the boundaries generated constraints use, and the awkward ones (-0, huge, tiny, 2^53). */
export const NUMBERS = [
  0, -0, 1, -1, 2, 3, 4, 5, -3, 0.5, -0.5, 1.25, 2.999, 10, 65535, 1e21, -1e21, 2 ** 53, 2 ** 53 + 2, 1e-7, 5e-324,
];

const scalar = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.constantFrom(...NUMBERS),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Keys a body may carry that no DTO declares, the prototype's names among them. */
export const EXTRA_KEYS = ['extra', 'zz', 'A', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '7'];

/**
 * Any JSON value (depth at most 2), objects as {@link JsonObject}: the wrong type for most rules.
 *
 * @example
 * ```ts
 * fc.sample(anyJson, 3); // e.g. ['$&', [null, 3], JsonObject { entries: [['__proto__', 1]] }]
 * ```
 */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'json', withCrossShrink: true },
    { weight: 6, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 3 })), tie('value')), { maxLength: 3 })
        .map((entries) => new JsonObject(entries)),
    },
  ),
})).value;

/** Strings of about `min`-`max` characters, astral and combining ones among them (validator.js counts those). */
export function stringsAround(min: number, max: number): fc.Arbitrary<string> {
  const lo = Math.max(0, Math.min(min, max) - 1);
  const hi = Math.max(min, max) + 1;
  return fc.oneof(
    fc.string({ minLength: lo, maxLength: hi }),
    fc.string({ unit: 'grapheme', minLength: lo, maxLength: hi }),
    fc.string({ unit: 'binary', minLength: lo, maxLength: hi }),
    fc.constantFrom(...STRINGS),
  );
}
