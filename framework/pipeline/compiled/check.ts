import { code, Code, compile, join, Name, nil, prop } from '../../codegen';
import type { ValidationDetail } from '../../http-exception';
import { joinField } from './fields';
import { isInherited } from './grouping';
import type { ClassPlan, NestedPlan, PropertyPlan, RulePlan } from './plan';
import type { Predicate } from './rules';

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
 * The function is generated per class, one statement per property and rule, with the property names as literals
 * and each rule's test and message at a call site of its own: V8 then inlines them, where one loop over the plan
 * for every class calls all of them from the same sites (about 100 ns more per body of three properties). The
 * source is built with framework/codegen and labelled `<Class>.check` (`TRELLIS_PRINT_CODE=TaskIn` prints it).
 *
 * @example
 * ```ts
 * const check = buildCheck(planOf(TaskIn), checkOf);
 * check(task, '', details);
 * ```
 */
export function buildCheck(plan: ClassPlan, checkOf: CheckOf): CompiledCheck {
  const { grouped, properties } = plan;
  const bound: Code[] = []; // the plan's functions, each read once into a constant of its own
  const bind = (name: string, value: Code) => {
    const constant = new Name(name);
    bound.push(code`const ${constant} = ${value};`);
    return constant;
  };
  const keeps = properties.length ? join(properties.map((property) => code`key !== ${property.name}`), code` && `) : code`true`;
  const body = properties.map((property, p) => propertySource(property, (name, path) => bind(`${name}${p}`, path(prop(PROPERTIES, p)))));
  const source = code`${join(bound, NEWLINE)}
  return function check(instance, prefix, details) {
    const object = instance;
    for (const key of Object.keys(object)) {
      if (${keeps}) {
        const metadatas = ${GROUPED}[key];
        if (!metadatas || metadatas.length === 0) delete object[key];
      }
    }
    ${join(body, NEWLINE)}
  };`;
  return compile<CompiledCheck>(`${plan.name}.check`, [
    [GROUPED, grouped], [PROPERTIES, properties], [HAS_OWN, Object.hasOwn], [JOIN_FIELD, joinField], [RECORD, record],
    [EVERY_ITEM, everyItem], [IS_COLLECTION, isCollection], [PRIMITIVE_FAILURES, primitiveFailures],
    [NESTED_INTO, nestedValidator(checkOf)],
  ], source);
}

const GROUPED = new Name('grouped');
const PROPERTIES = new Name('properties');
const HAS_OWN = new Name('hasOwn');
const JOIN_FIELD = new Name('joinField');
const RECORD = new Name('record');
const EVERY_ITEM = new Name('everyItem');
const IS_COLLECTION = new Name('isCollection');
const PRIMITIVE_FAILURES = new Name('primitiveFailures');
const NESTED_INTO = new Name('nestedInto');
const OBJECT = new Name('object');
const NEWLINE = code`
`;

// One property's statements; `bind(name, path)` names the plan's value at `path(properties[p])`.
function propertySource(property: PropertyPlan, bind: (name: string, path: (at: Code) => Code) => Name): Code {
  const { name, conditions, defined, rules, nested } = property;
  const read = prop(OBJECT, name);
  const ruleSource = (rule: RulePlan, list: 'defined' | 'rules', r: number) => {
    const test = bind(`${list}Test${r}_`, (at) => prop(prop(prop(at, list), r), 'test'));
    const message = bind(`${list}Message${r}_`, (at) => prop(prop(prop(at, list), r), 'message'));
    const passes = rule.each ? code`(${IS_COLLECTION}(value) ? ${EVERY_ITEM}(${test}, value) : ${test}(value))` : code`${test}(value)`;
    return code`if (!${passes}) failures = ${RECORD}(failures, ${rule.type}, ${message}(value, object));`;
  };
  const nestedPlans = nested.length ? bind('nested', (at) => prop(at, 'nested')) : undefined;
  const checks = code`let failures;
      ${join(defined.map((rule, r) => ruleSource(rule, 'defined', r)), NEWLINE)}
      ${join(rules.map((rule, r) => ruleSource(rule, 'rules', r)), NEWLINE)}
      ${nestedPlans ? code`const structured = value instanceof Object;
      if (value !== undefined && !structured) failures = ${PRIMITIVE_FAILURES}(${nestedPlans}, value, failures);` : nil}
      if (failures !== undefined) {
        const field = ${JOIN_FIELD}(prefix, ${name});
        for (let i = 1; i < failures.length; i += 2) details.push({ location: 'body', field, message: failures[i] });
      }
      ${nestedPlans ? code`if (structured) ${NESTED_INTO}(value, ${nestedPlans}, ${JOIN_FIELD}(prefix, ${name}), details);` : nil}`;
  // A property named like a member of Object.prototype (`toString`, `valueOf`...) that the body did not set is
  // absent (undefined), not that member: for its rules, its conditions (`@IsOptional` reads the object) and the handler.
  const absent = isInherited(name) ? code`if (!${HAS_OWN}(object, ${name})) ${read} = undefined;\n` : nil;
  if (conditions.length === 0) return code`{\n ${absent}const value = ${read};\n ${checks}\n }`;
  // class-validator calls every condition (no short-circuit), in order.
  const holds = conditions.map((_, c) => code`holds = ${bind(`condition${c}_`, (at) => prop(prop(at, 'conditions'), c))}(object, value) && holds;`);
  return code`{
    ${absent}const value = ${read};
    let holds = true;
    ${join(holds, NEWLINE)}
    if (holds) {
      ${checks}
    }
  }`;
}

function isCollection(value: unknown): value is unknown[] | Set<unknown> | Map<unknown, unknown> {
  return Array.isArray(value) || value instanceof Set || value instanceof Map;
}

function everyItem(test: Predicate, value: unknown[] | Set<unknown> | Map<unknown, unknown>): boolean {
  const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);
  let passes = true;
  for (let i = 0; i < items.length; i++) passes = test(items[i]) && passes;
  return passes;
}

function primitiveFailures(nested: NestedPlan[], value: unknown, failures: string[] | undefined): string[] {
  for (const plan of nested) failures = record(failures, 'nestedValidation', plan.message(value, plan.target));
  return failures!;
}

// Failures as [type, message, type, message...]: a type failing again replaces its message in place, as
// `error.constraints[type] = message` does.
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
    const arrayLike = isCollection(value);
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
