import 'reflect-metadata';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import type { Class } from '../core/types';

/** Where class-transformer keeps `@Type`, `@Expose`, `@Exclude` and `@Transform` (as in openapi/schemas.ts). */
export const { defaultMetadataStorage: transformer } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerStorage;
};
/** class-transformer's TransformationType.PLAIN_TO_CLASS. */
export const PLAIN_TO_CLASS = 0;

/**
 * What class-transformer is given of a parsed body, and what is set on the instance it returns.
 * `patch` is absent when nothing is.
 */
export interface Pruned {
  input: Record<string, unknown>;
  patch: ((instance: Record<string, unknown>) => void) | undefined;
}

/** Turns a parsed JSON object into {@link Pruned}, in time bounded by the declared properties. */
export type Pruner = (plain: Record<string, unknown>) => Pruned;

/** How the pruner treats a declared property of a DTO (see {@link declaredFields}). */
export type Field =
  // Validated as a nested DTO (`@ValidateNested() @Type(() => Item)`): pruned in turn.
  | { kind: 'nested'; key: string; target: Class; shape: () => Pruner }
  // No class-transformer decorator: the JSON value is set on the instance as is, after plainToInstance.
  | { kind: 'plain'; key: string }
  // Anything class-transformer has a say in (`@Transform`, `@Expose`, a `@Type` not validated as nested).
  | { kind: 'transformed'; key: string };

const compiled = new WeakMap<Class, Pruner>();

/**
 * Compiles, once per DTO class, what keeps of a body only the properties `cls` declares to class-validator
 * (which `whitelist` would strip anyway) before class-transformer sees it. `plainToInstance` works per key,
 * and deduplicates keys with `indexOf` (quadratic in keys): undeclared keys never reach it, and plain JSON
 * values (`@IsObject() meta`, `@IsArray() tags`), which it would only deep-copy, go around it.
 */
export function pruner(cls: Class): Pruner {
  let prune = compiled.get(cls);
  if (!prune) {
    let fields: Field[] | undefined;
    // Fields are read on first use, so that a class nesting itself compiles.
    prune = (plain) => pruneWith((fields ??= declaredFields(cls)), plain);
    compiled.set(cls, prune);
  }
  return prune;
}

/**
 * The properties `cls` declares to class-validator (inherited ones too), in the pruner's order, each with how the
 * pruner treats it.
 *
 * @example
 * ```ts
 * declaredFields(TaskIn); // [{ kind: 'plain', key: 'title' }, ...]
 * ```
 */
export function declaredFields(cls: Class): Field[] {
  const storage = getMetadataStorage();
  const metadatas = [
    ...storage.getTargetValidationMetadatas(cls, '', true, false),
    ...storage.getTargetValidationMetadatas(cls, '', false, false),
  ];
  const classWide = transformer.findExposeMetadata(cls, undefined as unknown as string) ??
    transformer.findExcludeMetadata(cls, undefined as unknown as string);
  const fields: Field[] = [];
  for (const property of new Set(metadatas.map((m) => m.propertyName))) {
    const nested = metadatas.some((m) => m.propertyName === property && m.type === 'nestedValidation');
    const type = transformer.findTypeMetadata(cls, property);
    const expose = transformer.findExposeMetadata(cls, property);
    const key = expose?.options?.name ?? property;
    const target = type && !type.options?.discriminator ? type.typeFunction() : undefined;
    if (nested && typeof target === 'function' && hasRules(target as Class)) {
      fields.push({ kind: 'nested', key, target: target as Class, shape: () => pruner(target as Class) });
    } else if (
      !classWide && !type && !expose && !transformer.findExcludeMetadata(cls, property) &&
      transformer.findTransformMetadatas(cls, property, PLAIN_TO_CLASS).length === 0
    ) {
      fields.push({ kind: 'plain', key });
    } else fields.push({ kind: 'transformed', key });
  }
  return fields;
}

function hasRules(cls: Class): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length > 0;
}

function pruneWith(fields: Field[], plain: Record<string, unknown>): Pruned {
  const input: Record<string, unknown> = {};
  const patches: Array<(instance: Record<string, unknown>) => void> = [];
  for (const field of fields) {
    const { key } = field;
    if (!Object.hasOwn(plain, key)) continue;
    const value = plain[key];
    if (field.kind === 'plain') patches.push((instance) => assign(instance, key, value));
    else if (field.kind === 'transformed' || !isObject(value)) input[key] = value;
    else if (!Array.isArray(value)) {
      const { input: child, patch } = field.shape()(value);
      input[key] = child;
      if (patch) {
        patches.push((instance) => {
          const target = instance[key];
          if (isObject(target)) patch(target);
        });
      }
    } else {
      const prune = field.shape();
      const items = value.map((item) => (isObject(item) && !Array.isArray(item) ? prune(item) : { input: item, patch: undefined }));
      input[key] = items.map((item) => item.input);
      if (items.some((item) => item.patch)) {
        patches.push((instance) => {
          const list = instance[key];
          if (!Array.isArray(list)) return;
          items.forEach((item, i) => {
            if (isObject(list[i])) item.patch?.(list[i]);
          });
        });
      }
    }
  }
  return { input, patch: patches.length ? (instance) => patches.forEach((patch) => patch(instance)) : undefined };
}

function assign(instance: Record<string, unknown>, key: string, value: unknown): void {
  if (!skipsAssign(Object.getPrototypeOf(instance), key)) instance[key] = value;
}

/**
 * What class-transformer skips too: whether the first of `prototype`'s chain (below Object.prototype) to have
 * `key` has a method or a getter without setter there.
 *
 * @example
 * ```ts
 * skipsAssign(Task.prototype, 'label'); // true for `get label() {...}` without a setter
 * ```
 */
export function skipsAssign(prototype: object | null, key: string): boolean {
  for (let proto = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (descriptor) return typeof descriptor.value === 'function' || (descriptor.get !== undefined && !descriptor.set);
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}
