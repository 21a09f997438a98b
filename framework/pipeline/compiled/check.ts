import type { ValidationDetail } from '../../http-exception';
import { joinField } from './fields';
import type { ClassPlan, NestedPlan, PropertyPlan, RulePlan } from './plan';

/** See framework/pipeline/compiled/index.ts. */
export type CompiledCheck = (instance: object, prefix: string, details: ValidationDetail[]) => void;

/** The check of the class an object was built as (`object.constructor`), as class-validator looks it up. */
export type CheckOf = (cls: Function) => CompiledCheck;

const UNKNOWN_VALUE = 'an unknown value was passed to the validate function';

/**
 * The check of a class without any rule: class-validator's `forbidUnknownValues` error, whose `property` is
 * undefined (hence the field framework/pipeline/validate.ts has always made of it: `meta.undefined`).
 */
export const unknownValueCheck: CompiledCheck = (_instance, prefix, details) => {
  details.push({ location: 'body', field: joinField(prefix, undefined as unknown as string), message: UNKNOWN_VALUE });
};

/**
 * Builds, from a class's plan, the function doing what class-validator 0.14's `ValidationExecutor.execute` does
 * for an instance of it with `whitelist` and `forbidUnknownValues` (followed by `stripEmptyErrors` and trellis's
 * `collect`): strip the properties without metadata, then per property the conditions, `@IsDefined`, the rules and
 * the nested validations, pushing each failing rule's message (one per rule key, in first-failure order) before
 * the details of what it nests.
 *
 * @example
 * ```ts
 * const check = buildCheck(planOf(TaskIn), checkOf);
 * check(task, '', details);
 * ```
 */
export function buildCheck(plan: ClassPlan, checkOf: CheckOf): CompiledCheck {
  const { grouped, properties } = plan;
  const nestedInto = nestedValidator(checkOf);
  return (instance, prefix, details) => {
    const object = instance as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const metadatas = grouped[key];
      if (!metadatas || metadatas.length === 0) delete object[key];
    }
    for (let p = 0; p < properties.length; p++) {
      const property = properties[p];
      const value = object[property.name];
      if (!conditionsHold(property, object, value)) continue;
      let failures = failed(property.defined, value, object, undefined);
      failures = failed(property.rules, value, object, failures);
      const { nested } = property;
      const structured = value instanceof Object;
      if (nested.length && value !== undefined && !structured) failures = primitiveFailures(nested, value, failures);
      if (failures) {
        const field = joinField(prefix, property.name);
        for (let i = 1; i < failures.length; i += 2) details.push({ location: 'body', field, message: failures[i] });
      }
      if (nested.length && structured) nestedInto(value, nested, joinField(prefix, property.name), details);
    }
  };
}

function conditionsHold(property: PropertyPlan, object: object, value: unknown): boolean {
  const { conditions } = property;
  let holds = true;
  for (let i = 0; i < conditions.length; i++) holds = conditions[i](object, value) && holds;
  return holds;
}

// Failures as [type, message, type, message...]: a type failing again replaces its message in place, as
// `error.constraints[type] = message` does.
function failed(rules: RulePlan[], value: unknown, object: object, failures: string[] | undefined): string[] | undefined {
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r];
    if (rule.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      if (everyItem(rule, value)) continue;
    } else if (rule.test(value)) continue;
    failures = record(failures, rule.type, rule.message(value, object));
  }
  return failures;
}

function everyItem(rule: RulePlan, value: unknown[] | Set<unknown> | Map<unknown, unknown>): boolean {
  const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);
  let passes = true;
  for (let i = 0; i < items.length; i++) passes = rule.test(items[i]) && passes;
  return passes;
}

function primitiveFailures(nested: NestedPlan[], value: unknown, failures: string[] | undefined): string[] {
  for (const plan of nested) failures = record(failures, 'nestedValidation', plan.message(value, plan.target));
  return failures!;
}

function record(failures: string[] | undefined, type: string, message: string): string[] {
  if (!failures) return [type, message];
  for (let i = 0; i < failures.length; i += 2) {
    if (failures[i] === type) {
      failures[i + 1] = message;
      return failures;
    }
  }
  failures.push(type, message);
  return failures;
}

// class-validator's nestedValidations for an object or array-like value (never undefined or a primitive here):
// once per @ValidateNested of the property, an array's items are validated in turn (their own
// primitives get the nested message, under their index) and an object is executed as its own class.
function nestedValidator(checkOf: CheckOf) {
  const nestedInto = (value: object, nested: NestedPlan[], field: string, details: ValidationDetail[]): void => {
    const arrayLike = Array.isArray(value) || value instanceof Set || value instanceof Map;
    for (let n = 0; n < nested.length; n++) {
      if (!arrayLike) {
        // A JSON object's own `constructor` key (not a class) has no rules either: not class-validator's TypeError.
        const cls: unknown = value.constructor;
        (typeof cls === 'function' ? checkOf(cls) : unknownValueCheck)(value, field, details);
        continue;
      }
      const visit = (item: unknown, index: unknown): void => {
        if (item === undefined) return;
        const itemField = joinField(field, String(index));
        if (item instanceof Object) nestedInto(item, nested, itemField, details);
        else {
          const failures = primitiveFailures(nested, item, undefined);
          details.push({ location: 'body', field: itemField, message: failures[1] });
        }
      };
      // A Set's items are indexed by position, a Map's by key (class-validator's forEach of each).
      const items = value instanceof Set ? Array.from(value) : value;
      if (Array.isArray(items)) for (let i = 0; i < items.length; i++) visit(items[i], i);
      else (items as Map<unknown, unknown>).forEach((item, key) => visit(item, key));
    }
  };
  return nestedInto;
}
