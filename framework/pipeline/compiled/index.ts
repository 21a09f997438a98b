import type { Class } from '../../core/types';
import { buildCheck, unknownValueCheck, type CompiledCheck } from './check';
import { fallbackReason, metadataOf, planOf } from './plan';

export type { CompiledCheck } from './check';

/**
 * A DTO class's validation, compiled once: `check` does synchronously what class-validator 0.14's
 * `validate(instance, { whitelist: true, forbidUnknownValues: true })` followed by trellis's `collect` does
 * (same stripping, same details in the same order), or the one-line reason the class keeps class-validator.
 */
export type CompiledRules = { kind: 'compiled'; check: CompiledCheck } | { kind: 'fallback'; reason: string };

const cache = new WeakMap<Function, CompiledRules>();

/**
 * Compiles the class-validator rules of `cls` (cached per class). A class falls back, with a reason, when one of
 * its rules (or of a class it nests) is not a built-in of framework/pipeline/compiled/rules.ts: a custom or async
 * constraint, validation groups, `@ValidatePromise`, a nested property with `@Transform` or a discriminator.
 *
 * @example
 * ```ts
 * const rules = compileRules(TaskIn);
 * if (rules.kind === 'compiled') {
 *   const details: ValidationDetail[] = [];
 *   rules.check(task, '', details); // strips undeclared properties, pushes class-validator's messages
 * } else console.log(rules.reason); // 'TaskIn.slug: custom constraint IsSlug'
 * ```
 */
export function compileRules(cls: Class): CompiledRules {
  let rules = cache.get(cls);
  if (!rules) {
    const reason = fallbackReason(cls);
    rules = reason ? { kind: 'fallback', reason } : { kind: 'compiled', check: checkFor(cls) };
    cache.set(cls, rules);
  }
  return rules;
}

// The plan is read on first use, so that a class nesting itself compiles.
function checkFor(cls: Class): CompiledCheck {
  if (metadataOf(cls).length === 0) return unknownValueCheck;
  let check: CompiledCheck | undefined;
  return (instance, prefix, details) => (check ??= buildCheck(planOf(cls), nestedCheck))(instance, prefix, details);
}

// What a nested object is validated as: the class it was built as, as class-validator's executor looks it up.
// fallbackReason has compiled the classes a nested property can hold (its @Type or declared type); anything else
// found at run time is an object class-transformer made without rules (a plain object, a Date), checked as such.
function nestedCheck(cls: Function): CompiledCheck {
  const rules = compileRules(cls as Class);
  if (rules.kind === 'compiled') return rules.check;
  throw new Error(`Compiled validation met an instance of ${cls.name}, whose rules are not compiled: ${rules.reason}`);
}
