import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A class's validation metadata by property name, in a map without prototype (see {@link groupByProperty}). */
export type Grouped = Record<string, ValidationMetadata[]>;

/**
 * class-validator's `groupByPropertyName`, in an object without prototype: class-validator 0.14 groups into `{}`,
 * where a property named `toString`, `valueOf` or `hasOwnProperty` finds Object.prototype's method instead of a
 * list and its `validate` throws (`grouped[name].push is not a function`) for every body.
 *
 * @example
 * ```ts
 * groupByProperty(metadataOf(Names)).toString; // [the IsString metadata of Names.toString]
 * ```
 */
export function groupByProperty(metadatas: readonly ValidationMetadata[]): Grouped {
  const grouped: Grouped = Object.create(null);
  for (const metadata of metadatas) (grouped[metadata.propertyName] ??= []).push(metadata);
  return grouped;
}

// Startup refuses DTO properties named `constructor` and `__proto__` (framework/pipeline/property-names.ts).
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype).filter((name) => name !== 'constructor' && name !== '__proto__'));

/**
 * Whether a DTO property is named like a member of Object.prototype (`toString`, `valueOf`, `hasOwnProperty`...):
 * one the body did not set is made an own `undefined` before validation, so that it is absent, not that member.
 */
export function isInherited(name: string): boolean {
  return INHERITED.has(name);
}

/** The properties of `cls` class-validator knows (inherited ones too) that {@link isInherited}. */
export function inheritedNames(cls: Function): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(metadatas.map((metadata) => metadata.propertyName))].filter(isInherited);
}

/** The properties of `cls` with `@ValidateNested()` (inherited ones too). */
export function nestedNames(cls: Function): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(metadatas.filter((metadata) => metadata.type === 'nestedValidation').map((metadata) => metadata.propertyName))];
}

let installed = false;

/**
 * Makes class-validator's own executor (the `validate` a class falls back to) group with {@link groupByProperty}:
 * the same groups, so the same results, for every property name. Installed once on its process-wide storage.
 */
export function installGrouping(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage() as unknown as { groupByPropertyName(metadatas: ValidationMetadata[]): Grouped };
  storage.groupByPropertyName = groupByProperty;
}
