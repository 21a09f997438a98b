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
 * Compiles, once per route, what turns a parsed JSON value into an instance of `cls`, stripped of unknown
 * properties (before any per-key work: see {@link pruner}) and validated by class-validator's public `validate`;
 * failures are pushed to `details` with dotted field paths (`items[0].name`) under `prefix`. The result is
 * `undefined` for a value that is not an object, else the instance: validated synchronously by the class's
 * compiled rules (framework/pipeline/compiled), or a promise of it for a class that falls back to class-validator.
 *
 * `validate` waits for every rule that answers with a promise, declared async or not (`validateSync` silently
 * passes those). It answers with a promise even when no rule made one; avoiding that promise took class-validator's
 * private `ValidationExecutor`, which saved under 1 µs of the 6-14 µs a sample DTO takes
 * (bench/micro/validation-executor.js) and nothing measurable on `POST /tasks` (bench/ab.js).
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
    const instance = build(value as Record<string, unknown>);
    if (check) {
      check(instance, prefix, details);
      return instance;
    }
    return validate(instance, OPTIONS).then((errors) => {
      collectAll(errors, prefix, details);
      return instance;
    });
  };
}

function collectAll(errors: ValidationError[], prefix: string, details: ValidationDetail[]): void {
  for (const error of errors) collect(error, prefix, details);
}

function collect(error: ValidationError, prefix: string, details: ValidationDetail[]): void {
  const field = joinField(prefix, error.property);
  for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field, message });
  for (const child of error.children ?? []) collect(child, field, details);
}
