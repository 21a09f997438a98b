// YAML 1.2's core schema for plain scalars (the `yaml` package's `schema: 'core'` tags, in its order), without
// loading a YAML parser: a built app types `${NAME}` values with it and never loads `yaml`.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/**
 * What the core schema makes of `text` written as a plain scalar: null, a boolean, a number, or the text.
 *
 * @example
 * ```ts
 * coreScalar('8212'); // 8212
 * coreScalar('false'); // false
 * coreScalar('0x1F'); // 31
 * coreScalar('s3cret'); // 's3cret'
 * ```
 */
export function coreScalar(text: string): unknown {
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_OCT.test(text)) return parseInt(text.slice(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (INT_HEX.test(text)) return parseInt(text.slice(2), 16);
  if (FLOAT_SPECIAL.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (FLOAT.test(text)) return parseFloat(text);
  return text;
}
