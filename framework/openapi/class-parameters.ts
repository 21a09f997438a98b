import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { Class } from '../core/types';
import type { TextType, ValueClass, ValueProperty } from '../pipeline/value-class';
import type { ParameterObject } from './types';

const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };

type Schema = Record<string, unknown>;

// What class-validator-jsonschema says of a property that the type read by the pipeline replaces.
const TYPE_KEYWORDS = ['type', 'format', 'oneOf', 'anyOf', 'items', '$ref'];

const TYPES: Record<TextType, Schema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date-time' },
};

const propertySchemas = new WeakMap<Class, Record<string, Schema>>();

/**
 * The parameters of a `@Query()` / `@Header()` class: one per property, `in: query` (or `header`, named in the
 * canonical `Request-Id` form, or as a quoted property writes it), required unless `@IsOptional()` or defaulted,
 * typed as the pipeline converts it, with the limits of its class-validator rules (`minimum`, `maxLength`,
 * `pattern`, `enum`...: class-validator-jsonschema's reading, as for bodies) and its default; an array is
 * `explode: true` (repeated keys). The class itself is no component of the document.
 *
 * @example
 * ```ts
 * classParameters(valueClassOf('Tasks.list', param, ListQuery));
 * // [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }, ...]
 * ```
 */
export function classParameters(valueClass: ValueClass): ParameterObject[] {
  const { cls, location, properties } = valueClass;
  const schemas = schemasOf(cls);
  return properties.map((property) => {
    const read = schemas[property.property] ?? {};
    const { description, ...rest } = read;
    const schema = schemaOf(property, rest);
    const name = location === 'header' ? headerName(property) : property.key;
    const parameter: ParameterObject = { name, in: location, required: property.required, schema };
    if (typeof description === 'string') parameter.description = description;
    if (property.array) parameter.explode = true;
    return parameter;
  });
}

function schemaOf(property: ValueProperty, read: Schema): Schema {
  // A Date default is most often `new Date()`: the moment the class was read, no value to document.
  const fallback = property.default instanceof Date ? undefined : property.default;
  const withDefault = (schema: Schema) => (fallback === undefined || fallback === null ? schema : { ...schema, default: fallback });
  if (!property.array) return withDefault(typed(property.type, read));
  const items = typeof read.items === 'object' && read.items !== null ? (read.items as Schema) : {};
  return withDefault({ type: 'array', ...without(read, [...TYPE_KEYWORDS, 'enum']), items: typed(property.type, items) });
}

// The keywords read, with the type the pipeline converts to, and an `enum` of only the values of that type
// (class-validator-jsonschema lists a numeric enum's names too).
function typed(type: TextType, read: Schema): Schema {
  const schema: Schema = { ...TYPES[type], ...without(read, TYPE_KEYWORDS) };
  if (Array.isArray(read.enum)) {
    const kind = type === 'integer' || type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : 'string';
    schema.enum = read.enum.filter((value) => typeof value === kind);
  }
  return schema;
}

function without(schema: Schema, keys: readonly string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

function schemasOf(cls: Class): Record<string, Schema> {
  let schemas = propertySchemas.get(cls);
  if (!schemas) {
    const schema = targetConstructorToSchema(cls, { classTransformerMetadataStorage: defaultMetadataStorage }) as { properties?: Record<string, Schema> };
    schemas = schema.properties ?? {};
    propertySchemas.set(cls, schemas);
  }
  return schemas;
}

/** A quoted property's name as written (`'X-Trace-Id'`), else its header in the canonical form (`Request-Id`). */
function headerName(property: ValueProperty): string {
  if (property.property.includes('-')) return property.property;
  return property.key.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
