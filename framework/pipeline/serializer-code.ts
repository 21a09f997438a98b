import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, writeCacheEntry } from '../source/types/cache';
import { withoutSelfReferences } from './serializer-schema';

/** A compiled fast-json-stringify function. */
export type Serialize = (value: unknown) => string;

const memory = new Map<string, Serialize>();
let version: string | undefined;

/**
 * The fast-json-stringify serializer of `schema`, from its standalone code: generated once and kept in the
 * project's cache (`node_modules/.cache/trellis/serializers`, by a hash of the schema and fast-json-stringify's
 * version; `from` is a project file), so a start whose shapes are cached loads only fast-json-stringify's small
 * runtime (`lib/serializer`) instead of the compiler and ajv (~60 ms of a cold start). `TRELLIS_CACHE=off`, or no
 * usable folder: generated at every start, as before.
 *
 * @example
 * ```ts
 * const serialize = serializerOf({ type: 'object', properties: { id: { type: 'integer' } } }, routeFile);
 * serialize({ id: 1, secret: 'x' }); // '{"id":1}'
 * ```
 */
export function serializerOf(schema: Record<string, unknown>, from: string | undefined): Serialize {
  version ??= (require('fast-json-stringify/package.json') as { version: string }).version;
  const key = createHash('sha256').update(`fast-json-stringify ${version}\0${JSON.stringify(schema)}`).digest('hex');
  const known = memory.get(key);
  if (known) return known;
  const dir = from === undefined ? undefined : cacheDir(from, undefined, 'serializers');
  const file = dir && join(dir, `${key}.js`);
  let serialize = file ? loadCached(file) : undefined;
  if (!serialize) {
    const code = standaloneCode(schema);
    serialize = load(code);
    if (file) writeCacheEntry(file, code);
  }
  memory.set(key, serialize);
  return serialize;
}

function loadCached(file: string): Serialize | undefined {
  try {
    return load(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // absent, or unreadable: generated again
  }
}

// The standalone module's code, run with this module's `require` (it needs `fast-json-stringify/lib/serializer`,
// and `lib/validator` only for schemas that branch on values: anyOf, if/then).
function load(code: string): Serialize {
  const module = { exports: undefined as unknown };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  if (typeof module.exports !== 'function') throw new TypeError('not a serializer');
  return module.exports as Serialize;
}

function standaloneCode(schema: Record<string, unknown>): string {
  const build = require('fast-json-stringify') as typeof import('fast-json-stringify');
  try {
    return build(schema as never, { mode: 'standalone' }) as unknown as string;
  } catch (error) {
    // fast-json-stringify recurses without end on a type that contains itself through a union
    // (`type V = string | V[] | { [k: string]: V }`): such values are sent whole, the shape around them kept.
    if (!(error instanceof RangeError)) throw error;
    return build(withoutSelfReferences(schema) as never, { mode: 'standalone' }) as unknown as string;
  }
}
