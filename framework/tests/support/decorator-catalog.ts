import fc from 'fast-check';
import * as cv from 'class-validator';
import type { ValidationArguments, ValidationOptions } from 'class-validator';
import { NUMBERS, STRINGS, anyJson, stringsAround } from './json-values';

// The class-validator decorators validation-equivalence.test.ts applies to generated DTO classes, each with
// generated constraints and options (`each`, a message template or function) and the values worth trying on it.

/** One decorator with its constraints chosen, ready to apply to a property. */
export interface Rule {
  /** The decorator's name as class-validator exports it. */
  name: string;
  /** How a counterexample shows it: `Min(3, {"each":true})`. */
  label: string;
  decorator: PropertyDecorator;
  /** Values for the property: valid ones, boundaries, and wrong types. */
  values: fc.Arbitrary<unknown>;
}

const TEMPLATES = [
  'plain message',
  '$property is wrong',
  'got $value for $property, wanted $constraint1',
  '$target.$property: [$constraint1] [$constraint2]',
  '$value$value $& $$',
];

function functionMessage(args: ValidationArguments): string {
  return `${args.property}|${typeof args.value}|${String(args.constraints)}|${args.targetName}`;
}

type Message = string | typeof functionMessage | undefined;
const message: fc.Arbitrary<Message> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom(...TEMPLATES) },
  { weight: 1, arbitrary: fc.constant(functionMessage) },
);

/** `each` and `message`, the options every decorator takes (groups and `always` belong to the fallback catalog). */
export const validationOptions: fc.Arbitrary<ValidationOptions> = fc
  .record({ each: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)), message })
  .map(({ each, message: text }) => ({ ...(each ? { each } : {}), ...(text !== undefined ? { message: text } : {}) }));

function show(value: unknown): string {
  if (value instanceof RegExp || typeof value === 'function') return String(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return JSON.stringify(value, (_, v) => (v instanceof RegExp ? String(v) : v));
}

function labelOf(name: string, params: unknown[], options: ValidationOptions): string {
  const opts = Object.keys(options).length
    ? [`{${Object.entries(options).map(([k, v]) => `${k}: ${typeof v === 'function' ? 'fn' : show(v)}`).join(', ')}}`]
    : [];
  return `${name}(${[...params.map(show), ...opts].join(', ')})`;
}

/**
 * The name each catalog decorator registers its rule under in class-validator (`IsUUID` -> `isUuid`), read once
 * from the metadata of a probe class; `Allow` has none.
 *
 * @example
 * ```ts
 * CONSTRAINTS.Length; // 'isLength'
 * ```
 */
export const CONSTRAINTS: Record<string, string> = {};

/**
 * A catalog entry: `params` generates the decorator's arguments, `make` applies them, `values` says what to try.
 * With `each`, arrays of those values are tried too.
 */
// Arguments are `any`: each entry's lambdas pass them straight to the decorator they were generated for.
type Args = any[]; // eslint-disable-line @typescript-eslint/no-explicit-any

function entry(
  name: string,
  params: fc.Arbitrary<Args>,
  make: (options: ValidationOptions, ...args: Args) => PropertyDecorator,
  values: (...args: Args) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Rule> {
  const [sample] = fc.sample(params, { numRuns: 1, seed: 1 });
  const probe = class {};
  make({}, ...sample)(probe.prototype, 'probe');
  CONSTRAINTS[name] = cv.getMetadataStorage().getTargetValidationMetadatas(probe, '', true, false)[0]?.name ?? name;
  return fc.tuple(params, validationOptions).map(([args, options]) => {
    const own = fc.oneof({ weight: 3, arbitrary: values(...args) }, { weight: 1, arbitrary: anyJson });
    const label = labelOf(name, args, options);
    return {
      name,
      label,
      [fc.toStringMethod]: () => label,
      decorator: make(options, ...args),
      values: options.each ? fc.oneof(own, fc.array(own, { maxLength: 3 })) : own,
    };
  });
}

const none = fc.constant<Args>([]);
const strings = fc.constantFrom(...STRINGS);
const numbers = fc.constantFrom(...NUMBERS);
const small = fc.integer({ min: -2, max: 6 });
const bound = fc.oneof(small, fc.constantFrom(0.5, -1.5, 2.25));
const near = (n: number) => fc.constantFrom(n, n - 1, n + 1, n - 0.5, n + 0.5, -0, String(n));
const pool = (...items: unknown[]) => fc.constantFrom(...items);
const listOf = (...items: unknown[]) => fc.subarray(items, { minLength: 1 });

const EMAILS = ['a@b.co', 'user.name+tag@example.com', 'a@b', 'plain', '@x.io', 'a@@b.co', 'A@B.CO', ' a@b.co', 'ü@ü.de'];
const URLS = ['http://example.com', 'https://a.b/c?d=e#f', 'example.com', 'ftp://x.y', 'http://', 'not a url',
  'http://localhost:3000', '//x.com', 'https://xn--r8jz45g.jp/p'];
const UUIDS = ['123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-42d3-a456-426614174000', '00000000-0000-0000-0000-000000000000',
  '123e4567e89b12d3a456426614174000', 'A987FBC9-4BED-3078-CF07-9141BA07C9F3', 'A987FBC9-4BED-4078-8F07-9141BA07C9F3'];
const DATES = ['2024-01-31', '2024-02-30', '2024-01-31T10:00:00Z', '2024-01-31T10:00:00.123+02:00', '20240131',
  '2024-13-01', 'yesterday', '2024-01-31 10:00', '2024-W05', '2024-1-3'];
const NUMERIC = ['1', '-1', '1.5', ' 1', '1e3', 'abc', '0x10', '+3', '٣', '1_000'];
const ENUMS: Record<string, object> = {
  Letters: { A: 'a', B: 'b' },
  Numbers: { 0: 'Zero', 1: 'One', Zero: 0, One: 1 }, // a TypeScript numeric enum, with its reverse mapping
  Mixed: { Yes: 'yes', No: 0, 0: 'No' },
};
const PATTERNS: Array<[RegExp | string, string | undefined]> = [
  [/^[a-z]+$/, undefined], [/\d/, undefined], [/^a/i, undefined], [/a/g, undefined], [/^\p{L}+$/u, undefined],
  ['ab+c', 'i'], ['ab+c', undefined], ['^$', undefined], ['^[^$]*$', undefined],
];

/**
 * Every decorator the test can apply to a plain (non-nested) property, by name.
 *
 * @example
 * ```ts
 * const [rule] = fc.sample(CATALOG.Min, 1); // { name: 'Min', label: 'Min(3)', decorator, values }
 * rule.decorator(Dto.prototype, 'count');
 * ```
 */
export const CATALOG: Record<string, fc.Arbitrary<Rule>> = {
  // type checkers
  IsString: entry('IsString', none, (o) => cv.IsString(o), () => strings),
  IsInt: entry('IsInt', none, (o) => cv.IsInt(o), () => numbers),
  IsNumber: entry('IsNumber', fc.constantFrom<[cv.IsNumberOptions]>([{}], [{ maxDecimalPlaces: 0 }], [{ maxDecimalPlaces: 2 }], [{ allowNaN: true, allowInfinity: true }]),
    (o, opts) => cv.IsNumber(opts, o), () => fc.oneof(numbers, fc.double({ noNaN: true, noDefaultInfinity: true }))),
  IsBoolean: entry('IsBoolean', none, (o) => cv.IsBoolean(o), () => pool(true, false, 'true', 0, 1)),
  IsArray: entry('IsArray', none, (o) => cv.IsArray(o), () => fc.array(strings, { maxLength: 3 })),
  IsObject: entry('IsObject', none, (o) => cv.IsObject(o), () => anyJson),
  IsEnum: entry('IsEnum', fc.constantFrom(...Object.keys(ENUMS)).map((k) => [k] as [string]),
    (o, k) => cv.IsEnum(ENUMS[k], o), (k) => pool(...Object.keys(ENUMS[k]), ...Object.values(ENUMS[k]), 'c', 2)),
  IsDate: entry('IsDate', none, (o) => cv.IsDate(o), () => fc.constantFrom(...DATES)),
  // common
  IsDefined: entry('IsDefined', none, (o) => cv.IsDefined(o), () => pool(null, '', 0)),
  IsNotEmpty: entry('IsNotEmpty', none, (o) => cv.IsNotEmpty(o), () => pool('', ' ', null, 0, false, [])),
  IsEmpty: entry('IsEmpty', none, (o) => cv.IsEmpty(o), () => pool('', null, 0, ' ')),
  Equals: entry('Equals', fc.tuple(pool('a', 1, true, null, 0)), (o, c) => cv.Equals(c, o), (c) => pool(c, '1', 'a', 1, -0, false)),
  NotEquals: entry('NotEquals', fc.tuple(pool('a', 1, true, null, 0)), (o, c) => cv.NotEquals(c, o), (c) => pool(c, '1', 'a', 1, -0)),
  IsIn: entry('IsIn', fc.tuple(listOf('a', 'b', 'abc', 1, 2, '1', true, null)), (o, l) => cv.IsIn(l, o), () => pool('a', 'b', 'abc', 1, 2, '1', true, null, 'c', 3, '2')),
  IsNotIn: entry('IsNotIn', fc.tuple(listOf('a', 'b', 1, '1', null)), (o, l) => cv.IsNotIn(l, o), () => pool('a', 'b', 1, '1', null, 'c', 3)),
  // numbers
  Min: entry('Min', fc.tuple(bound), (o, n) => cv.Min(n, o), (n) => near(n)),
  Max: entry('Max', fc.tuple(bound), (o, n) => cv.Max(n, o), (n) => near(n)),
  IsPositive: entry('IsPositive', none, (o) => cv.IsPositive(o), () => pool(1, 0, -0, -1, 5e-324, '1')),
  IsNegative: entry('IsNegative', none, (o) => cv.IsNegative(o), () => pool(-1, 0, -0, 1, -5e-324, '-1')),
  IsDivisibleBy: entry('IsDivisibleBy', fc.tuple(pool(2, 3, 0.5)), (o, n) => cv.IsDivisibleBy(n, o), () => pool(0, 1, 2, 3, 4, 6, 1.5, '4')),
  // strings
  MinLength: entry('MinLength', fc.tuple(fc.nat(4)), (o, n) => cv.MinLength(n, o), (n) => stringsAround(n, n)),
  MaxLength: entry('MaxLength', fc.tuple(fc.nat(4)), (o, n) => cv.MaxLength(n, o), (n) => stringsAround(n, n)),
  Length: entry('Length', fc.tuple(fc.nat(3), fc.option(fc.nat(5), { nil: undefined })), (o, min, max) => cv.Length(min, max, o),
    (min, max) => stringsAround(min, max ?? min + 2)),
  Matches: entry('Matches', fc.constantFrom(...PATTERNS), (o, p, m) => (typeof p === 'string' ? cv.Matches(p, m, o) : cv.Matches(p, o)),
    () => pool('abc', 'ABC', 'a1', '', 'abbc', 'xabbbcx', 'ä', '$', 'a$b')),
  Contains: entry('Contains', fc.tuple(pool('a', '$', 'ab')), (o, s) => cv.Contains(s, o), () => strings),
  NotContains: entry('NotContains', fc.tuple(pool('a', '$', 'ab')), (o, s) => cv.NotContains(s, o), () => strings),
  IsAlpha: entry('IsAlpha', none, (o) => cv.IsAlpha(undefined, o), () => strings),
  IsAlphanumeric: entry('IsAlphanumeric', none, (o) => cv.IsAlphanumeric(undefined, o), () => strings),
  IsLowercase: entry('IsLowercase', none, (o) => cv.IsLowercase(o), () => strings),
  IsUppercase: entry('IsUppercase', none, (o) => cv.IsUppercase(o), () => strings),
  IsNumberString: entry('IsNumberString', none, (o) => cv.IsNumberString(undefined, o), () => pool(...NUMERIC)),
  IsBooleanString: entry('IsBooleanString', none, (o) => cv.IsBooleanString(o), () => pool('true', 'false', '1', '0', 'TRUE', 'yes')),
  IsEmail: entry('IsEmail', none, (o) => cv.IsEmail(undefined, o), () => pool(...EMAILS)),
  IsUrl: entry('IsUrl', none, (o) => cv.IsUrl(undefined, o), () => pool(...URLS)),
  IsUUID: entry('IsUUID', fc.tuple(pool(undefined, '4', 'all')), (o, v) => cv.IsUUID(v as '4' | undefined, o), () => pool(...UUIDS)),
  IsDateString: entry('IsDateString', none, (o) => cv.IsDateString(undefined, o), () => pool(...DATES)),
  IsISO8601: entry('IsISO8601', fc.tuple(pool(undefined, { strict: true })), (o, s) => cv.IsISO8601(s, o), () => pool(...DATES)),
  IsHexColor: entry('IsHexColor', none, (o) => cv.IsHexColor(o), () => pool('#fff', 'fff', '#ffff', '#abcdef', '#ggg', '#FFF')),
  IsJSON: entry('IsJSON', none, (o) => cv.IsJSON(o), () => pool('{}', '[]', '1', '"a"', '{a}', 'null', '')),
  IsPort: entry('IsPort', none, (o) => cv.IsPort(o), () => pool('80', '0', '65535', '65536', '-1', 'http')),
  IsMongoId: entry('IsMongoId', none, (o) => cv.IsMongoId(o), () => pool('507f1f77bcf86cd799439011', '507f1f77bcf86cd79943901', 'zz')),
  // arrays
  ArrayMinSize: entry('ArrayMinSize', fc.tuple(fc.nat(3)), (o, n) => cv.ArrayMinSize(n, o), () => fc.array(strings, { maxLength: 4 })),
  ArrayMaxSize: entry('ArrayMaxSize', fc.tuple(fc.nat(3)), (o, n) => cv.ArrayMaxSize(n, o), () => fc.array(strings, { maxLength: 4 })),
  ArrayNotEmpty: entry('ArrayNotEmpty', none, (o) => cv.ArrayNotEmpty(o), () => fc.array(strings, { maxLength: 2 })),
  ArrayUnique: entry('ArrayUnique', none, (o) => cv.ArrayUnique(undefined, o), () => fc.array(pool('a', 'b', 1, '1', null), { maxLength: 4 })),
  ArrayContains: entry('ArrayContains', fc.tuple(listOf('a', 1, 'b')), (o, l) => cv.ArrayContains(l, o), () => fc.array(pool('a', 'b', 1, '1'), { maxLength: 3 })),
  ArrayNotContains: entry('ArrayNotContains', fc.tuple(listOf('a', 1)), (o, l) => cv.ArrayNotContains(l, o), () => fc.array(pool('a', 'b', 1, '1'), { maxLength: 3 })),
  // objects
  IsNotEmptyObject: entry('IsNotEmptyObject', fc.constantFrom<[{ nullable: boolean } | undefined]>([undefined], [{ nullable: true }]), (o, n) => cv.IsNotEmptyObject(n, o), () => anyJson),
  // no rule, only a place in the whitelist
  Allow: entry('Allow', none, (o) => cv.Allow(o), () => anyJson),
};

/**
 * Decorators that can hold together on one property, so that generated properties are satisfiable often enough
 * (a random mix like IsInt + IsEmail never is; the test mixes freely too, less often).
 *
 * @example
 * ```ts
 * FAMILIES.number; // ['IsInt', 'IsNumber', 'Min', ...]
 * ```
 */
export const FAMILIES: Record<string, string[]> = {
  string: ['IsString', 'MinLength', 'MaxLength', 'Length', 'Matches', 'Contains', 'NotContains', 'IsNotEmpty', 'IsLowercase', 'IsUppercase'],
  format: ['IsString', 'IsAlpha', 'IsAlphanumeric', 'IsEmail', 'IsUrl', 'IsUUID', 'IsDateString', 'IsISO8601', 'IsNumberString',
    'IsBooleanString', 'IsHexColor', 'IsJSON', 'IsPort', 'IsMongoId', 'MaxLength'],
  number: ['IsInt', 'IsNumber', 'Min', 'Max', 'IsPositive', 'IsNegative', 'IsDivisibleBy', 'NotEquals'],
  choice: ['IsIn', 'IsNotIn', 'Equals', 'NotEquals', 'IsEnum', 'IsDefined', 'IsBoolean'],
  array: ['IsArray', 'ArrayMinSize', 'ArrayMaxSize', 'ArrayNotEmpty', 'ArrayUnique', 'ArrayContains', 'ArrayNotContains'],
  object: ['IsObject', 'IsNotEmptyObject', 'IsDefined', 'Allow', 'IsNotEmpty'],
  other: ['IsEmpty', 'IsDate', 'IsDefined', 'Allow'],
};
