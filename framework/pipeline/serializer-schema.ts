import { refNames } from '../openapi/source-schemas';

const PREFIX = '#/components/schemas/';
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

type Schema = Record<string, unknown>;

/**
 * The schema fast-json-stringify compiles for a declared response schema (`$ref`s into `definitions`, as a route's
 * docs have them): only what shapes the output is kept, and made to mean what trellis sends.
 * - Properties not declared are dropped (fast-json-stringify's rule: `additionalProperties: false` goes, since it
 *   would make a union's branch fail on the very properties shaping drops); `additionalProperties: true` or a
 *   schema (`Record<string, T>`) keeps them. An object with no declared properties at all (`{ type: 'object' }`,
 *   as documented for a class without class-validator rules) is free-form and sent whole.
 * - Every `type` becomes a list with `null` (fast-json-stringify would send `null` as `""`, `0` or `{}` for a single
 *   type): `null` is sent as `null`, and a value of another type than declared throws instead of being coerced.
 * - `const`, `enum` and `format` go (fast-json-stringify would send the `const` whatever the value, check formats
 *   inside unions only, and cut a `Date` to `YYYY-MM-DD` under `format: 'date'`, which class-validator-jsonschema
 *   gives `@IsDate()`): a `Date` is sent as its full ISO string wherever a string is declared.
 * - `$ref: '#/components/schemas/Name'` (URI-encoded, `Page%3CTask%3E`) points into `#/definitions/dN`: only the
 *   definitions reached are included.
 *
 * @example
 * ```ts
 * serializerSchema({ $ref: '#/components/schemas/User' }, { User: { type: 'object', properties: { id: { type: 'number' } } } });
 * // { $ref: '#/definitions/d0', definitions: { d0: { type: ['object', 'null'], properties: { id: { type: ['number', 'null'] } } } } }
 * ```
 */
export function serializerSchema(root: unknown, definitions: Readonly<Record<string, unknown>>): Schema {
  const keys = new Map<string, string>();
  const queue: string[] = [];
  const refTo = (ref: string): Schema => {
    const name = definitionName(ref);
    if (!Object.hasOwn(definitions, name)) throw new Error(`${ref} names no schema`);
    let key = keys.get(name);
    if (!key) {
      key = `d${keys.size}`;
      keys.set(name, key);
      queue.push(name);
    }
    return { $ref: `#/definitions/${key}` };
  };
  const schema = convert(root, refTo);
  if (!queue.length) return schema;
  const converted: Schema = {};
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) converted[keys.get(name)!] = convert(definitions[name], refTo);
  return { ...schema, definitions: converted };
}

/** `schema` with every `$ref` to a definition that reaches itself replaced by `{}` (any value, sent as it is). */
export function withoutSelfReferences(schema: Record<string, unknown>): Record<string, unknown> {
  const definitions = (schema.definitions ?? {}) as Record<string, unknown>;
  const reaches = (from: string, target: string, seen: Set<string>): boolean =>
    [...refNames(definitions[from], '#/definitions/')].some((next) => next === target || (!seen.has(next) && (seen.add(next), reaches(next, target, seen))));
  const recursive = new Set(Object.keys(definitions).filter((name) => reaches(name, name, new Set())));
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && recursive.has(ref.slice('#/definitions/'.length))) return {};
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, strip(child)]));
  };
  return strip(schema) as Record<string, unknown>;
}

function convert(input: unknown, refTo: (ref: string) => Schema): Schema {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return {}; // `true`, `false`, or not a schema
  const source = input as Schema;
  if (typeof source.$ref === 'string') return refTo(source.$ref);
  const out: Schema = {};
  const each = (value: unknown) => convert(value, refTo);
  if (isRecord(source.properties)) out.properties = mapValues(source.properties, each);
  if (isRecord(source.patternProperties)) out.patternProperties = mapValues(source.patternProperties, each);
  if (source.additionalProperties === true) out.additionalProperties = true;
  else if (isRecord(source.additionalProperties)) out.additionalProperties = each(source.additionalProperties);
  if (Array.isArray(source.required)) out.required = source.required.filter((name) => typeof name === 'string');
  if (Array.isArray(source.prefixItems)) out.items = source.prefixItems.map(each);
  else if (Array.isArray(source.items)) out.items = source.items.map(each);
  else if (isRecord(source.items)) out.items = each(source.items);
  for (const keyword of COMBINATORS) {
    if (Array.isArray(source[keyword])) out[keyword] = (source[keyword] as unknown[]).map(each);
  }
  const types = typesOf(source.type) ?? (out.properties || out.patternProperties || out.additionalProperties ? ['object'] : undefined);
  if (types) {
    out.type = types.includes('null') ? types : [...types, 'null'];
    const free = !out.properties && !out.patternProperties && !out.additionalProperties && !COMBINATORS.some((k) => out[k]);
    if (types.includes('object') && free) out.additionalProperties = true;
  }
  return out;
}

function typesOf(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.length && type.every((t) => typeof t === 'string')) return [...new Set(type as string[])];
  return undefined;
}

// `#/components/schemas/Page%3CTask%3E` -> `Page<Task>` (URI-encoded, then JSON-pointer-escaped).
function definitionName(ref: string): string {
  if (!ref.startsWith(PREFIX)) throw new Error(`${ref} is not a reference to #/components/schemas`);
  const raw = ref.slice(PREFIX.length);
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // Not URI-encoded after all: the name as written.
  }
  return name.replace(/~1/g, '/').replace(/~0/g, '~');
}

function isRecord(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mapValues(record: Schema, fn: (value: unknown) => Schema): Schema {
  const out: Schema = {};
  // defineProperty: a property named `__proto__` is a property, not the object's prototype.
  for (const key of Object.keys(record)) Object.defineProperty(out, key, { value: fn(record[key]), enumerable: true, writable: true, configurable: true });
  return out;
}
