import { validateSync, type ValidationError } from 'class-validator';
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
// Reads one property onto the instance; returns its name when the property failed (absent or unconvertible), so
// that the validator's messages about it give way to that one.
type PropertyReader = (source: Source, instance: Instance, details: ValidationDetail[]) => string | undefined;

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
 * `'header'`) and the property as `field`. Keys the class does not declare are never read.
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
  const readers = properties.map((property) => propertyReader(location, property));
  const count = readers.length;
  const order = new Map(properties.map((p, i) => [p.property, i]));
  return (request, details) => {
    const source: Source = location === 'query' ? request.query : request.headers;
    const instance = new cls() as Instance;
    const first = details.length;
    let failed: string[] | undefined;
    for (let i = 0; i < count; i++) {
      const property = readers[i](source, instance, details);
      if (property !== undefined) (failed ??= []).push(property);
    }
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

function propertyReader(location: 'query' | 'header', described: ValueProperty): PropertyReader {
  const { property, key, array, required } = described;
  const convert = CONVERTERS[described.type];
  const invalid = MESSAGES[described.type];
  if (!array) {
    return (source, instance, details) => {
      const raw = source[key];
      if (raw === undefined) return required ? missing(location, property, details) : undefined;
      const value = convert(typeof raw === 'string' ? raw : raw[raw.length - 1]);
      if (value === INVALID) {
        details.push({ location, field: property, message: invalid });
        return property;
      }
      instance[property] = value;
      return undefined;
    };
  }
  return (source, instance, details) => {
    const raw = source[key];
    if (raw === undefined) return required ? missing(location, property, details) : undefined;
    // Node joins a repeated header's values with ', '; a query key repeats.
    const texts = typeof raw !== 'string' ? raw : location === 'header' ? raw.split(',').map((text) => text.trim()) : [raw];
    const values = new Array(texts.length);
    let failed: string | undefined;
    for (let i = 0; i < texts.length; i++) {
      values[i] = convert(texts[i]);
      if (values[i] !== INVALID) continue;
      details.push({ location, field: `${property}[${i}]`, message: invalid });
      failed = property;
    }
    if (failed === undefined) instance[property] = values;
    return failed;
  };
}

function missing(location: 'query' | 'header', property: string, details: ValidationDetail[]): string {
  details.push({ location, field: property, message: 'Field required' });
  return property;
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
