import { validateSync, type ValidationError } from 'class-validator';
import { code, compile, join, Name, prop } from '../codegen';
import type { IncomingHttpHeaders } from 'node:http';
import type { ValidationDetail } from '../http-exception';
import type { QueryValues, Request } from '../request';
import { compileRules, type CompiledCheck } from './compiled';
import { isInherited } from './compiled/grouping';
import { converterFor, INVALID, INVALID_MESSAGE, type Converter } from './convert';
import { dateFromText } from './date-text';
import type { TextType, ValueClass, ValueProperty } from './value-class';

/** Reads a class of query or header values from a request (see {@link valueClassReader}). */
export type ValueClassReader = (request: Request, details: ValidationDetail[]) => object;

type Source = QueryValues | IncomingHttpHeaders;
type Instance = Record<string, unknown>;

const CONVERTERS: Record<TextType, Converter> = {
  string: converterFor('string'),
  number: converterFor('number'),
  integer: converterFor('integer'),
  boolean: converterFor('boolean'),
  date: dateFromText,
};
const MESSAGES: Record<TextType, string> = { ...INVALID_MESSAGE, date: 'Input should be a valid datetime' };

/**
 * Compiles, once per route, the reading of a `@Query()` / `@Header()` class: per request, one pass over its
 * properties (each converted from its key's text onto `new cls()`, so that class defaults stay for absent keys),
 * then the class's compiled class-validator check (class-validator's `validateSync` for a class with custom
 * rules). A value that does not convert is one detail (`Input should be a valid integer`), an absent required one
 * `Field required`, in place of the rules' messages about it; every detail says `location: 'query'` (or
 * `'header'`) and the property as `field`, in the class's property order. Keys the class does not declare are
 * never read.
 *
 * The pass is generated per class (framework/codegen, labelled `<Class>.readQuery` or `<Class>.readHeaders`, which
 * `TRELLIS_PRINT_CODE` prints), one block per property with its key and name as literals and its converter at a
 * call site of its own: about half the time of a loop calling one reader per property.
 *
 * @example
 * ```ts
 * const read = valueClassReader(valueClassOf('Tasks.list', param, ListQuery));
 * const query = read(request, details); // a ListQuery; details holds the 422's failures
 * ```
 */
export function valueClassReader(valueClass: ValueClass): ValueClassReader {
  const { cls, location, properties } = valueClass;
  const rules = compileRules(cls);
  const check = rules.kind === 'compiled' ? rules.check : fallbackCheck(properties);
  const readInto = passOf(valueClass);
  const order = new Map(properties.map((p, i) => [p.property, i]));
  return (request, details) => {
    const source: Source = location === 'query' ? request.query : request.headers;
    const instance = new cls() as Instance;
    const first = details.length;
    const failed = readInto(source, instance, details);
    const start = details.length;
    check(instance, '', details);
    if (details.length > start) relabel(details, start, location, failed);
    if (failed && details.length > start) inPropertyOrder(details, first, order);
    return instance;
  };
}

// Conversion failures and the rules' messages, merged in the class's property order (stable within a property).
function inPropertyOrder(details: ValidationDetail[], first: number, order: Map<string, number>): void {
  const rank = (detail: ValidationDetail) => order.get(detail.field.replace(/\[\d+\]$/, '')) ?? order.size;
  const sorted = details.slice(first).sort((a, b) => rank(a) - rank(b));
  for (let i = 0; i < sorted.length; i++) details[first + i] = sorted[i];
}

// Reads every property onto the instance; returns the names of those that failed (absent or unconvertible), so
// that the validator's messages about them give way to the failure's own.
type Pass = (source: Source, instance: Instance, details: ValidationDetail[]) => string[] | undefined;

const SOURCE = new Name('source');
const INSTANCE = new Name('instance');
const INVALID_VALUE = new Name('INVALID');
const MISSING = new Name('missing');
const FAILURE = new Name('failure');
const ARRAY_OF = new Name('arrayOf');
const NEWLINE = code`
`;

function passOf(valueClass: ValueClass): Pass {
  const { cls, location, properties } = valueClass;
  const bound: Array<readonly [Name, unknown]> = [];
  const blocks = properties.map((described, p) => {
    const convert = new Name(`convert${p}`);
    bound.push([convert, CONVERTERS[described.type]]);
    const { property, key } = described;
    const absent = described.required ? code`failed = ${MISSING}(failed, details, ${location}, ${property});` : code`;`;
    const read = described.array
      ? code`const value = ${ARRAY_OF}(${convert}, raw, ${location === 'header'}, details, ${location}, ${property}, ${MESSAGES[described.type]});`
      : code`const value = ${convert}(typeof raw === 'string' ? raw : raw[raw.length - 1]);`;
    const invalid = described.array
      ? code`failed = ${FAILURE}(failed, undefined, ${location}, ${property}, '');`
      : code`failed = ${FAILURE}(failed, details, ${location}, ${property}, ${MESSAGES[described.type]});`;
    return code`{
      const raw = ${prop(SOURCE, key)};
      if (raw === undefined) ${absent}
      else {
        ${read}
        if (value === ${INVALID_VALUE}) ${invalid}
        else ${prop(INSTANCE, property)} = value;
      }
    }`;
  });
  const source = code`return function pass(source, instance, details) {
    let failed;
    ${join(blocks, NEWLINE)}
    return failed;
  };`;
  const label = `${cls.name}.${location === 'query' ? 'readQuery' : 'readHeaders'}`;
  return compile<Pass>(label, [...bound, [INVALID_VALUE, INVALID], [MISSING, missing], [FAILURE, failure], [ARRAY_OF, arrayOf]], source);
}

// The values of an array property, or INVALID after a detail per item that does not convert. Node joins a repeated
// header's values with ', '; a query key repeats.
function arrayOf(
  convert: Converter, raw: string | string[], header: boolean, details: ValidationDetail[], location: 'query' | 'header', property: string, message: string,
): unknown[] | typeof INVALID {
  const texts = typeof raw !== 'string' ? raw : header ? raw.split(',').map((text) => text.trim()) : [raw];
  const values = new Array(texts.length);
  let valid = true;
  for (let i = 0; i < texts.length; i++) {
    values[i] = convert(texts[i]);
    if (values[i] !== INVALID) continue;
    details.push({ location, field: `${property}[${i}]`, message });
    valid = false;
  }
  return valid ? values : INVALID;
}

function failure(failed: string[] | undefined, details: ValidationDetail[] | undefined, location: 'query' | 'header', property: string, message: string): string[] {
  details?.push({ location, field: property, message });
  return failed ? [...failed, property] : [property];
}

function missing(failed: string[] | undefined, details: ValidationDetail[], location: 'query' | 'header', property: string): string[] {
  return failure(failed, details, location, property, 'Field required');
}

// The check's details (from `start`) get the location; those about a property that failed before are dropped.
function relabel(details: ValidationDetail[], start: number, location: 'query' | 'header', failed: string[] | undefined): void {
  let kept = start;
  for (let i = start; i < details.length; i++) {
    const detail = details[i];
    if (failed?.includes(detail.field)) continue;
    detail.location = location;
    details[kept++] = detail;
  }
  details.length = kept;
}

const OPTIONS = { whitelist: true, forbidUnknownValues: true, validationError: { target: false, value: false } };

// class-validator itself, synchronously, for a class whose rules framework/pipeline/compiled cannot compile (a
// custom constraint); valueClassOf has refused async rules and groups, which validateSync would skip.
function fallbackCheck(properties: readonly ValueProperty[]): CompiledCheck {
  const inherited = properties.map((p) => p.property).filter(isInherited);
  return (instance, _prefix, details) => {
    for (const name of inherited) if (!Object.hasOwn(instance, name)) (instance as Instance)[name] = undefined;
    for (const error of validateSync(instance, OPTIONS) as ValidationError[]) {
      for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field: error.property, message });
    }
  };
}
