import { getMetadataStorage, validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { ValidationDetail } from '../http-exception';
import type { Class } from '../core/types';
import { compileRules } from './compiled';
import { joinField } from './compiled/fields';
import { inheritedNames, installGrouping, nestedNames } from './compiled/grouping';
import { instanceBuilder } from './instance';
import { UnreadableBody } from './unreadable-body';

export { joinField };

installGrouping();

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/**
 * Whether class-validator knows any rule of `cls` (without one, whitelisting would strip every property).
 *
 * @example
 * ```ts
 * hasValidationRules(TaskIn); // true when a property has @IsString() or another rule
 * ```
 */
export function hasValidationRules(cls: Class): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length > 0;
}

/** Validates one parsed JSON value into an instance of a DTO class (see {@link compileValidator}). */
export type InstanceValidator = (value: unknown, prefix: string, details: ValidationDetail[]) => unknown;

/**
 * Compiles, once per route, what turns a parsed JSON value into an instance of `cls` ({@link instanceBuilder}:
 * undeclared properties never reach per-key work) validated with class-validator's rules and messages; failures
 * are pushed to `details` with dotted field paths (`items[0].name`) under `prefix`. The result is `undefined` for a
 * value that is not an object, else the instance: checked synchronously by the class's compiled rules
 * (framework/pipeline/compiled), or a promise of it for a class that falls back to class-validator's public
 * `validate` (custom or async constraints, groups: `trellis doctor` lists them).
 *
 * @example
 * ```ts
 * const toTask = compileValidator(TaskIn);
 * const details: ValidationDetail[] = [];
 * const task = toTask({ title: '' }, '', details); // details: [{ location: 'body', field: 'title', message: 'title should not be empty' }]
 * ```
 */
export function compileValidator(cls: Class): InstanceValidator {
  const build = instanceBuilder(cls);
  const rules = compileRules(cls);
  const check = rules.kind === 'compiled' ? rules.check : undefined;
  return (value, prefix, details) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      details.push({ location: 'body', field: prefix, message: 'Input should be an object' });
      return undefined;
    }
    let instance: Record<string, unknown>;
    try {
      instance = build(value as Record<string, unknown>) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof UnreadableBody) return unreadable(prefix, details);
      throw error;
    }
    // A throw of the compiled rules is a defect of trellis: a 500 with its stack in the log, never a 422.
    if (check) {
      check(instance, prefix, details);
      return instance;
    }
    // class-validator throws some rules' errors synchronously, others as a rejection: both are its reading of the body.
    // What the compiled rules do too: a `toString` the body did not set is undefined, not Object.prototype's.
    unsetInherited(instance, new Set());
    let validated: Promise<ValidationError[]>;
    try {
      validated = validate(instance, OPTIONS);
    } catch {
      return unreadable(prefix, details);
    }
    return validated.then(
      (errors) => {
        collectAll(errors, prefix, details);
        return instance;
      },
      () => unreadable(prefix, details),
    );
  };
}

// Every instance class-validator will validate (the body's, and the nested ones it reaches through each class's
// @ValidateNested properties, by their constructor as it does) gets its unset Object.prototype-named properties as
// own `undefined`.
function unsetInherited(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) return value.forEach((item) => unsetInherited(item, seen));
  const object = value as Record<string, unknown>;
  const cls = object.constructor;
  if (typeof cls !== 'function') return;
  for (const name of inheritedNames(cls)) if (!Object.hasOwn(object, name)) object[name] = undefined;
  for (const name of nestedNames(cls)) unsetInherited(object[name], seen);
}

// class-transformer and class-validator throw on some bodies (see UnreadableBody): those are the client's 422, not a 500.
function unreadable(prefix: string, details: ValidationDetail[]): undefined {
  details.push({ location: 'body', field: prefix, message: 'Input could not be validated' });
  return undefined;
}

function collectAll(errors: ValidationError[], prefix: string, details: ValidationDetail[]): void {
  for (const error of errors) collect(error, prefix, details);
}

function collect(error: ValidationError, prefix: string, details: ValidationDetail[]): void {
  const field = joinField(prefix, error.property);
  for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field, message });
  for (const child of error.children ?? []) collect(child, field, details);
}
