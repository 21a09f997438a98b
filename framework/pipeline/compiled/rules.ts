import {
  arrayMaxSize, arrayMinSize, arrayNotEmpty, equals, isArray, isBoolean, isDate, isDateString, isDefined, isEmail,
  isEmpty, isEnum, isIn, isInt, isISO8601, isNegative, isNotEmpty, isNotIn, isNumber, isObject, isPositive, isString,
  isURL, isUUID, length, matches, max, maxLength, min, minLength, notEquals,
} from 'class-validator';

/** A built-in rule's test of one value, its constraints (the decorator's arguments) already bound. */
export type Predicate = (value: unknown) => boolean;

interface BuiltIn {
  /** The predicate class-validator's decorator calls, bound to `constraints` as its `validate` passes them. */
  test: (constraints: any[]) => Predicate;
  /** Whether the default message reads the value (Length chooses its wording from it): computed per failure. */
  messageReadsValue?: true;
}

type Fn = (...args: any[]) => boolean;
const plain = (fn: Fn): BuiltIn => ({ test: () => (value) => fn(value) });
const one = (fn: Fn): BuiltIn => ({ test: (c) => (value) => fn(value, c[0]) });

/**
 * The built-in class-validator rules the compiler knows, by the name they register under (the constraint's `name`,
 * e.g. `isString` for `@IsString()`), each with the exported predicate the decorator's `validate` calls with the
 * same arguments. Any other rule makes its class fall back to class-validator. `IsOptional`, `ValidateIf`,
 * `ValidateNested` and `Allow` are not rules of this table but metadata types the compiler reads directly.
 *
 * @example
 * ```ts
 * BUILT_IN.get('maxLength')!.test([10])('short'); // true
 * ```
 */
export const BUILT_IN: ReadonlyMap<string, BuiltIn> = new Map<string, BuiltIn>([
  ['isDefined', plain(isDefined)],
  ['equals', one(equals)],
  ['notEquals', one(notEquals)],
  ['isEmpty', plain(isEmpty)],
  ['isNotEmpty', plain(isNotEmpty)],
  ['isIn', one(isIn)],
  ['isNotIn', one(isNotIn)],
  ['isString', plain(isString)],
  ['isInt', plain(isInt)],
  // class-validator's isNumber throws on `maxDecimalPlaces` with a number JSON wrote in exponent form (1e-7): here
  // that value fails the rule (422 with its message) instead of the request failing (500).
  ['isNumber', { test: (c) => (value) => { try { return isNumber(value, c[0]); } catch { return false; } } }],
  ['isBoolean', plain(isBoolean)],
  ['isArray', plain(isArray)],
  ['isObject', plain(isObject)],
  ['isDate', plain(isDate)],
  ['isEnum', one(isEnum)],
  ['min', one(min)],
  ['max', one(max)],
  ['isPositive', plain(isPositive)],
  ['isNegative', plain(isNegative)],
  ['minLength', one(minLength)],
  ['maxLength', one(maxLength)],
  ['isLength', { test: (c) => (value) => length(value, c[0], c[1]), messageReadsValue: true }],
  ['matches', { test: (c) => (value) => matches(value as string, c[0], c[1]) }],
  ['isEmail', one(isEmail)],
  ['isUuid', one(isUUID)],
  ['isUrl', one(isURL)],
  ['isIso8601', one(isISO8601)],
  ['isDateString', one(isDateString)],
  ['arrayMinSize', one(arrayMinSize)],
  ['arrayMaxSize', one(arrayMaxSize)],
  ['arrayNotEmpty', plain(arrayNotEmpty)],
]);
