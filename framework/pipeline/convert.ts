import type { ScalarType } from '../core/types';

/** Returned by a converter when the text is not a value of the type. */
export const INVALID = Symbol('invalid');

export type Converter = (text: string) => unknown;

// Both run on query, path and header values, so each must match in time linear in the text: no two
// quantifiers may compete for the same characters (`\d+\.?\d*` did, and `1111...x` backtracked quadratically).
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+|\d+\.\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

const converters: Record<ScalarType, Converter> = {
  string: (text) => text,
  integer: (text) => {
    const value = Number(text);
    return INTEGER.test(text) && Number.isSafeInteger(value) ? value : INVALID;
  },
  number: (text) => {
    const value = Number(text);
    return NUMBER.test(text) && Number.isFinite(value) ? value : INVALID;
  },
  boolean: (text) => {
    const lower = text.toLowerCase();
    return TRUE.has(lower) ? true : FALSE.has(lower) ? false : INVALID;
  },
};

/** Pydantic's wording, familiar to FastAPI users. */
export const INVALID_MESSAGE: Record<ScalarType, string> = {
  string: 'Input should be a valid string',
  integer: 'Input should be a valid integer',
  number: 'Input should be a valid number',
  boolean: 'Input should be a valid boolean',
};

export function converterFor(type: ScalarType): Converter {
  return converters[type];
}
