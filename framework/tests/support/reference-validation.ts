import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { ValidationDetail } from '../../http-exception';
import type { Class } from '../../metadata';
import { pruner } from '../../pipeline/declared-shape';

// What framework/pipeline/validate.ts did before issue 15 compiled DTO rules: the oracle of
// validation-equivalence.test.ts. A copy on purpose (joinField and collect too), so that later changes to the
// pipeline are compared against class-validator's own answers, not against themselves.

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/** What one body object became: the instance (after whitelist stripping) and the 422 details. */
export interface Outcome {
  instance: object;
  details: ValidationDetail[];
}

/**
 * Builds and validates `plain` as today's path does: `pruner(cls)`, class-transformer's `plainToInstance` and the
 * patch, then class-validator's `validate` with trellis's options, its errors flattened to `details`.
 *
 * @example
 * ```ts
 * const { details } = await referenceOutcome(TaskIn, JSON.parse('{"title": 3}'), '');
 * // [{ location: 'body', field: 'title', message: 'title must be a string' }]
 * ```
 */
export async function referenceOutcome(cls: Class, plain: Record<string, unknown>, prefix: string): Promise<Outcome> {
  const instance = referenceInstance(cls, plain);
  const errors = await validate(instance, OPTIONS);
  const details: ValidationDetail[] = [];
  for (const error of errors) collect(error, prefix, details);
  return { instance, details };
}

/**
 * The instance today's path validates: `pruner(cls)`, `plainToInstance`, then the patch of plain values.
 *
 * @example
 * ```ts
 * referenceInstance(TaskIn, { title: 'a', extra: 1 }); // TaskIn { title: 'a' }
 * ```
 */
export function referenceInstance(cls: Class, plain: Record<string, unknown>): object {
  const { input, patch } = pruner(cls)(plain);
  const instance = plainToInstance(cls, input) as Record<string, unknown>;
  patch?.(instance);
  return instance;
}

function collect(error: ValidationError, prefix: string, details: ValidationDetail[]): void {
  const field = joinField(prefix, error.property);
  for (const message of Object.values(error.constraints ?? {})) details.push({ location: 'body', field, message });
  for (const child of error.children ?? []) collect(child, field, details);
}

function joinField(prefix: string, property: string | number): string {
  if (typeof property === 'number' || /^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}
