import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, Validator, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { ValidationDetail } from '../http-exception';
import type { Class } from '../metadata';
import { pruner } from './declared-shape';

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
 * properties (before any per-key work: see {@link pruner}) and validated; failures are pushed to `details` with dotted field paths (`items[0].name`) under
 * `prefix`. The result is the instance, or a promise of it only when a rule of `cls` answered with a promise.
 */
export function compileValidator(cls: Class): InstanceValidator {
  const prune = pruner(cls);
  return (value, prefix, details) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      details.push({ location: 'body', field: prefix, message: 'Input should be an object' });
      return undefined;
    }
    const { input, patch } = prune(value as Record<string, unknown>);
    const instance = plainToInstance(cls, input) as Record<string, unknown>;
    patch?.(instance);
    const errors = validateInstance(instance);
    if (!(errors instanceof Promise)) {
      collectAll(errors, prefix, details);
      return instance;
    }
    return errors.then((found) => {
      collectAll(found, prefix, details);
      return instance;
    });
  };
}

// Internal to class-validator 0.14 (pinned by routing-controllers' peer range): see validateInstance.
const { ValidationExecutor } = require('class-validator/cjs/validation/ValidationExecutor') as
  typeof import('class-validator/types/validation/ValidationExecutor');
const validator = new Validator();

/**
 * class-validator's `validate`, without its promise when no rule made one: `validate` runs the same executor
 * and then always waits on `Promise.all` of the rules' promises, which cost more than the checks of a small
 * DTO. `validateSync` would be cheaper still but silently passes a rule that returns a promise without being
 * declared async; this keeps `validate`'s answer for every rule.
 */
function validateInstance(instance: object): ValidationError[] | Promise<ValidationError[]> {
  const executor = new ValidationExecutor(validator, OPTIONS);
  const errors: ValidationError[] = [];
  executor.execute(instance, undefined as unknown as string, errors);
  if (executor.awaitingPromises.length === 0) return executor.stripEmptyErrors(errors);
  return Promise.all(executor.awaitingPromises).then(() => executor.stripEmptyErrors(errors));
}

function collectAll(errors: ValidationError[], prefix: string, details: ValidationDetail[]): void {
  for (const error of errors) collect(error, prefix, details);
}

function collect(error: ValidationError, prefix: string, details: ValidationDetail[]): void {
  const field = joinField(prefix, error.property);
  for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field, message });
  for (const child of error.children ?? []) collect(child, field, details);
}

export function joinField(prefix: string, property: string | number): string {
  if (typeof property === 'number' || /^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}
