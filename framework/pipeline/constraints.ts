import type { ScalarType } from '../core/types';
import type { ValueConstraints } from '../core/value-constraints';

/** The option names of {@link ValueConstraints}, in the order they are documented. */
export const CONSTRAINT_KEYS = ['minimum', 'maximum', 'enum', 'pattern', 'minLength', 'maxLength'] as const;

/** A misused constraint: the option and why (the decorator wraps it into a `TRELLIS_ERR_PARAM_CONSTRAINT`). */
export class ConstraintProblem {
  constructor(readonly option: string, readonly reason: string) {}
}

/** Checks a converted value: the message of its first broken limit, or undefined. */
export type ConstraintCheck = (value: unknown) => string | undefined;

const NUMERIC = new Set<ScalarType>(['number', 'integer']);

/**
 * The options of `options` that are constraints, checked against the value type, or undefined when there are none.
 * Throws a {@link ConstraintProblem} for one that cannot apply (`minimum` on a string, a pattern that is not a
 * regular expression, an empty `enum`, `minimum` above `maximum`, an enum value of another type...).
 */
export function constraintsOf(options: Partial<ValueConstraints>, type: ScalarType): ValueConstraints | undefined {
  const present = CONSTRAINT_KEYS.filter((key) => options[key] !== undefined);
  if (present.length === 0) return undefined;
  const constraints: ValueConstraints = {};
  for (const key of present) {
    const value = options[key];
    if (key === 'minimum' || key === 'maximum') {
      if (!NUMERIC.has(type)) throw new ConstraintProblem(key, `it applies to numbers, and the parameter is a ${type}`);
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConstraintProblem(key, `${show(value)} is not a finite number`);
    } else if (key === 'minLength' || key === 'maxLength' || key === 'pattern') {
      if (type !== 'string') throw new ConstraintProblem(key, `it applies to strings, and the parameter is a ${type}`);
      if (key !== 'pattern' && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)) {
        throw new ConstraintProblem(key, `${show(value)} is not a whole number from 0`);
      }
      if (key === 'pattern') compilePattern(value);
    } else {
      if (!Array.isArray(value) || value.length === 0) throw new ConstraintProblem(key, `${show(value)} is not a non-empty list of values`);
      const stranger = value.findIndex((item) => !isOfType(item, type));
      if (stranger >= 0) throw new ConstraintProblem(key, `${show(value[stranger])} is not a ${type}, the parameter's type`);
    }
    (constraints as Record<string, unknown>)[key] = key === 'enum' ? Object.freeze([...(value as unknown[])]) : value;
  }
  if (constraints.minimum !== undefined && constraints.maximum !== undefined && constraints.minimum > constraints.maximum) {
    throw new ConstraintProblem('minimum', `${constraints.minimum} is above maximum ${constraints.maximum}`);
  }
  if (constraints.minLength !== undefined && constraints.maxLength !== undefined && constraints.minLength > constraints.maxLength) {
    throw new ConstraintProblem('minLength', `${constraints.minLength} is above maxLength ${constraints.maxLength}`);
  }
  return Object.freeze(constraints);
}

/**
 * Compiles, once per route, the check of a converted value against its constraints (the pattern's RegExp is
 * built here, never per request). Limits are checked in this order and the first broken one is reported:
 * enum, minLength, maxLength, pattern (only on a value within the lengths), minimum, maximum. The messages
 * are pydantic's, like the conversion errors'.
 *
 * @example
 * ```ts
 * const check = compileConstraints({ minimum: 1 });
 * check(0); // 'Input should be greater than or equal to 1'
 * check(1); // undefined
 * ```
 */
export function compileConstraints(constraints: ValueConstraints): ConstraintCheck {
  const { minimum, maximum, minLength, maxLength, pattern } = constraints;
  const allowed = constraints.enum && new Set<unknown>(constraints.enum);
  const oneOf = constraints.enum && `Input should be ${listOf(constraints.enum)}`;
  const regex = pattern === undefined ? undefined : compilePattern(pattern);
  const measured = minLength !== undefined || maxLength !== undefined;
  return (value) => {
    if (allowed && !allowed.has(value)) return oneOf;
    if (typeof value === 'string') {
      const length = measured ? codePoints(value) : 0;
      if (minLength !== undefined && length < minLength) return `String should have at least ${plural(minLength, 'character')}`;
      if (maxLength !== undefined && length > maxLength) return `String should have at most ${plural(maxLength, 'character')}`;
      if (regex && !regex.test(value)) return `String should match pattern '${pattern}'`;
    } else if (typeof value === 'number') {
      if (minimum !== undefined && value < minimum) return `Input should be greater than or equal to ${minimum}`;
      if (maximum !== undefined && value > maximum) return `Input should be less than or equal to ${maximum}`;
    }
    return undefined;
  };
}

/**
 * The JSON Schema keywords of the constraints, for a parameter's schema (of each item, for an array).
 *
 * @example
 * ```ts
 * constraintKeywords({ minimum: 1, maximum: 100 }); // { minimum: 1, maximum: 100 }
 * ```
 */
export function constraintKeywords(constraints: ValueConstraints | undefined): Record<string, unknown> {
  const keywords: Record<string, unknown> = {};
  if (!constraints) return keywords;
  for (const key of CONSTRAINT_KEYS) {
    const value = constraints[key];
    if (value !== undefined) keywords[key] = key === 'enum' ? [...(value as unknown[])] : value;
  }
  return keywords;
}

function compilePattern(pattern: unknown): RegExp {
  if (typeof pattern !== 'string') throw new ConstraintProblem('pattern', `${show(pattern)} is not a string`);
  try {
    // No `g` or `y` flag: `test` keeps no state between requests.
    return new RegExp(pattern, 'u');
  } catch (error) {
    throw new ConstraintProblem('pattern', `${show(pattern)} is not a valid regular expression (${(error as Error).message})`);
  }
}

function isOfType(value: unknown, type: ScalarType): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isSafeInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/** Length in code points, as JSON Schema counts (a surrogate pair is one character). */
function codePoints(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** pydantic's list: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
function listOf(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function show(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
