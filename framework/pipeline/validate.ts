import { getMetadataStorage, validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { ValidationDetail } from '../http-exception';
import type { Class } from '../metadata';
import { compileRules } from './compiled';
import { joinField } from './compiled/fields';
import { instanceBuilder } from './instance';

export { joinField };

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
    try {
      const instance = build(value as Record<string, unknown>);
      if (check) {
        check(instance, prefix, details);
        return instance;
      }
      // class-validator throws some rules' errors synchronously, others as a rejection.
      return validate(instance, OPTIONS).then(
        (errors) => {
          collectAll(errors, prefix, details);
          return instance;
        },
        () => unreadable(prefix, details),
      );
    } catch {
      return unreadable(prefix, details);
    }
  };
}

// class-transformer and class-validator throw on some bodies (an array of arrays where DTOs are declared holding an
// object whose own `constructor` is not a class; a nested `constructor: null`): those are the client's 422, not a 500.
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
