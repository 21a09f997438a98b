import type { IParseOptions } from 'qs';
import { HTTPException } from '../http-exception';
import type { FormValue } from './form';
import { FIELD_DEPTH_LIMIT, URLENCODED_PARAMETER_LIMIT } from './limits';

const OPTIONS: IParseOptions = {
  depth: FIELD_DEPTH_LIMIT,
  strictDepth: true,
  parameterLimit: URLENCODED_PARAMETER_LIMIT,
  arrayLimit: URLENCODED_PARAMETER_LIMIT,
  throwOnLimitExceeded: true,
  // `__proto__`, `constructor` and other Object.prototype names are dropped.
  allowPrototypes: false,
  allowDots: false,
  charset: 'utf-8',
};

/** Parses a urlencoded body into nested fields; too many pairs is a 413, too deep a name a 400. */
export function parseUrlencoded(text: string): Record<string, FormValue | undefined> {
  try {
    // Loaded by the first form body: an API that takes none never pays for it at startup.
    const { parse } = require('qs') as typeof import('qs');
    return parse(text, OPTIONS) as Record<string, FormValue>;
  } catch (error) {
    throw limitError(error);
  }
}

/** Nests multipart field pairs the same way as a urlencoded body. */
export function fieldsFromPairs(pairs: ReadonlyArray<readonly [string, string]>): Record<string, FormValue | undefined> {
  if (pairs.length === 0) return {};
  return parseUrlencoded(pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&'));
}

function limitError(error: unknown): HTTPException {
  const message = error instanceof Error ? error.message : '';
  if (/parameter limit/i.test(message)) {
    return new HTTPException(413, `Too many form fields: at most ${URLENCODED_PARAMETER_LIMIT}`);
  }
  if (/depth/i.test(message)) return new HTTPException(400, `Form field names nest deeper than ${FIELD_DEPTH_LIMIT} levels`);
  if (/array limit/i.test(message)) {
    return new HTTPException(400, `Form array index above ${URLENCODED_PARAMETER_LIMIT}`);
  }
  return new HTTPException(400, 'Malformed form body');
}
