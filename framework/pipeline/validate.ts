import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { ValidationDetail } from '../http-exception';
import type { Class } from '../metadata';

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/** Whether class-validator knows any rule of `cls` (without one, whitelisting would strip every property). */
export function hasValidationRules(cls: Class): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length > 0;
}

/**
 * Turns a parsed JSON value into an instance of `cls`, stripped of unknown properties and validated.
 * Failures are pushed to `details` with dotted field paths (`items[0].name`) under `prefix`.
 */
export async function toValidInstance(
  cls: Class,
  value: unknown,
  prefix: string,
  details: ValidationDetail[],
): Promise<unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    details.push({ location: 'body', field: prefix, message: 'Input should be an object' });
    return undefined;
  }
  const instance = plainToInstance(cls, value) as object;
  const errors = await validate(instance, OPTIONS);
  for (const error of errors) collect(error, prefix, details);
  return instance;
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
