import type { TypeSchema } from '../source/types/table';
import type { SchemaObject } from './types';

/** The component names a schema's `$ref`s (`#/components/schemas/Name`) point at, nested ones included. */
export function refNames(schema: unknown, prefix: string, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) refNames(item, prefix, found);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) found.add(value.slice(prefix.length));
      else refNames(value, prefix, found);
    }
  }
  return found;
}

/**
 * One schema for a class described twice: by class-validator's rules (`validated`) and by its TypeScript
 * declaration (`declared`). The rules win for the properties they cover; the declaration adds the others,
 * required when it says so. Not an object on either side: the rules' schema as it is.
 */
export function mergeSourceSchema(validatedSchema: SchemaObject, declared: TypeSchema): SchemaObject {
  const validated = validatedSchema as Record<string, unknown>;
  const declaredProps = declared.properties as Record<string, unknown> | undefined;
  if (!declaredProps || validated.type !== 'object' || '$ref' in validated) return validatedSchema;
  const validatedProps = (validated.properties ?? {}) as Record<string, unknown>;
  const added = Object.keys(declaredProps).filter((name) => !Object.hasOwn(validatedProps, name));
  if (!added.length) return validatedSchema;
  const declaredRequired = ((declared.required ?? []) as string[]).filter((name) => added.includes(name));
  const required = [...((validated.required ?? []) as string[]), ...declaredRequired];
  const merged: Record<string, unknown> = {
    ...validated,
    properties: { ...validatedProps, ...Object.fromEntries(added.map((name) => [name, declaredProps[name]])) },
  };
  if (required.length) merged.required = required;
  else delete merged.required;
  return merged;
}
