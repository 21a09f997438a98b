import { plainToInstance } from 'class-transformer';
import { code, type Code, compile, join, Name, prop } from '../codegen';
import type { Class } from '../core/types';
import { pruner, skipsAssign } from './declared-shape';
import { type InstancePlan, instancePlan, type NestedStep } from './instance-plan';
import { readByLibrary } from './unreadable-body';

/** Turns a parsed JSON object into an instance of a DTO class (see {@link instanceBuilder}). */
export type InstanceBuilder = (plain: Record<string, unknown>) => object;

const builders = new WeakMap<Class, InstanceBuilder>();

/**
 * Compiles, once per DTO class, what turns a parsed JSON object into an instance of `cls`: the instance trellis
 * always built, with `pruner(cls)` (declared keys only, plain fields around class-transformer), class-transformer's
 * `plainToInstance` and the pruner's patch, equal in prototypes, own properties and nested instances.
 *
 * A class whose properties carry no class-transformer decorator but a plain `@Type(() => Item)` on nested DTOs
 * (the same for every class it nests) is built without class-transformer: `new cls()`, then what
 * `plainToInstance` would do, by a function generated per class from the metadata read once (instance-plan.ts),
 * then the pruner's patch, generated alike (framework/codegen, labelled `<Class>.construct` and `<Class>.patch`,
 * which `TRELLIS_PRINT_CODE` prints). Any other class (`@Transform`, `@Expose`, `@Exclude`, a `@Type` with
 * options or not validated as nested...) keeps class-transformer. Compiled on first use, so that a class nesting
 * itself, or one declared later, compiles.
 *
 * @example
 * ```ts
 * const build = instanceBuilder(TaskIn);
 * const task = build({ title: 'Write', extra: 1 }); // a TaskIn with title 'Write' (undeclared keys dropped)
 * ```
 */
export function instanceBuilder(cls: Class): InstanceBuilder {
  let build = builders.get(cls);
  if (!build) {
    let compiled: InstanceBuilder | undefined;
    build = (plain) => (compiled ??= compileBuilder(cls))(plain);
    builders.set(cls, build);
  }
  return build;
}

/**
 * Whether {@link instanceBuilder} builds instances of `cls` without class-transformer.
 *
 * @example
 * ```ts
 * buildsWithoutTransformer(TaskIn); // true: no @Transform, @Expose, @Exclude
 * ```
 */
export function buildsWithoutTransformer(cls: Class): boolean {
  return instancePlan(cls) !== undefined;
}

function compileBuilder(cls: Class): InstanceBuilder {
  const plan = instancePlan(cls);
  if (!plan) return transformerPath(cls);
  const { construct, patch } = codeOf(plan);
  return (plain) => {
    const instance = construct(plain);
    patch(instance, plain);
    return instance;
  };
}

function transformerPath(cls: Class): InstanceBuilder {
  const prune = pruner(cls);
  return (plain) => {
    const { input, patch } = prune(plain);
    const instance = readByLibrary(() => plainToInstance(cls, input)) as Record<string, unknown>;
    patch?.(instance);
    return instance;
  };
}

type Plain = Record<string, unknown>;
interface Steps {
  /** What plainToInstance does with the pruned body: only nested properties reach it. */
  construct: (plain: Plain) => Plain;
  /** What the pruner's patch does after it: plain properties set, nested ones patched where they have any. */
  patch: (instance: Plain, plain: Plain) => void;
}

const generated = new WeakMap<InstancePlan, Steps>();

// One function per class and step, with the property names as literals: V8 then sets them as fast as a class
// constructor does (a loop over names sets each through a slow generic path, most of the time a plan saves).
function codeOf(plan: InstancePlan): Steps {
  let steps = generated.get(plan);
  if (steps) return steps;
  const construct = compile<Steps['construct']>(`${plan.cls.name}.construct`, [
    [CLS, plan.cls], [NESTED, plan.nested], [HAS_OWN, Object.hasOwn], [SKIPS_OWN_PROTOTYPE, skipsOwnPrototype], [CONVERT, convert],
  ], constructSource(plan));
  const patch = compile<Steps['patch']>(`${plan.cls.name}.patch`, [
    [PROTOTYPE, plan.cls.prototype], [FIELDS, plan.fields], [HAS_OWN, Object.hasOwn], [GET_PROTOTYPE_OF, Object.getPrototypeOf],
    [SKIPS_ASSIGN, skipsAssign], [PATCH_NESTED, patchNested],
  ], patchSource(plan));
  steps = { construct, patch };
  generated.set(plan, steps);
  return steps;
}

const CLS = new Name('cls');
const NESTED = new Name('nested');
const HAS_OWN = new Name('hasOwn');
const SKIPS_OWN_PROTOTYPE = new Name('skipsOwnPrototype');
const CONVERT = new Name('convert');
const PROTOTYPE = new Name('prototype');
const FIELDS = new Name('fields');
const GET_PROTOTYPE_OF = new Name('getPrototypeOf');
const SKIPS_ASSIGN = new Name('skipsAssign');
const PATCH_NESTED = new Name('patchNested');
const INSTANCE = new Name('instance');
const PLAIN = new Name('plain');
const NEWLINE = code`
`;

function constructSource(plan: InstancePlan): Code {
  const steps = plan.nested.map((step, i) => code`if (${HAS_OWN}(plain, ${step.key}) &&
      !((usual ? ${step.protoSkip} : ${SKIPS_OWN_PROTOTYPE}(instance, ${step.key})) || ${prop(INSTANCE, step.key)} instanceof Function)) {
      ${prop(INSTANCE, step.key)} = ${CONVERT}(${NESTED}[${i}], ${prop(PLAIN, step.key)});
    }`);
  return code`return (plain) => {
    const instance = new ${CLS}();
    const usual = instance.constructor === ${CLS};
    ${join(steps, NEWLINE)}
    return instance;
  };`;
}

function patchSource(plan: InstancePlan): Code {
  const steps = plan.fields.map((step, i) => step.kind === 'plain'
    ? code`if (${HAS_OWN}(plain, ${step.key}) && !(usual ? ${step.skip} : ${SKIPS_ASSIGN}(${GET_PROTOTYPE_OF}(instance), ${step.key}))) {
      ${prop(INSTANCE, step.key)} = ${prop(PLAIN, step.key)};
    }`
    : code`if (${HAS_OWN}(plain, ${step.key})) ${PATCH_NESTED}(${FIELDS}[${i}], instance, ${prop(PLAIN, step.key)});`);
  return code`return (instance, plain) => {
    const usual = ${GET_PROTOTYPE_OF}(instance) === ${PROTOTYPE};
    ${join(steps, NEWLINE)}
  };`;
}

// class-transformer's rule (TransformOperationExecutor): the key on the instance's constructor's prototype, no setter.
function skipsOwnPrototype(instance: Plain, key: string): boolean {
  const prototype = (instance.constructor as { prototype?: object }).prototype;
  if (!prototype) return false;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return descriptor !== undefined && !descriptor.set;
}

function convert(step: NestedStep, value: unknown): unknown {
  if (Array.isArray(value)) {
    const { construct } = codeOf(step.plan);
    const list = step.arrayType ? newArray(step.arrayType) : [];
    value.forEach((item) => {
      // The pruner hands an array in an array to class-transformer as it is.
      const built = Array.isArray(item) ? readByLibrary(() => plainToInstance(step.plan.cls, item)) : isObject(item) ? construct(item) : item;
      if (list instanceof Set) list.add(built);
      else list.push(built);
    });
    return list;
  }
  return isObject(value) ? codeOf(step.plan).construct(value) : value;
}

function patchNested(step: NestedStep, instance: Plain, value: unknown): void {
  if (!isObject(value)) return;
  const nested = step.plan;
  if (!Array.isArray(value)) {
    if (!patches(nested, value)) return;
    const target = instance[step.key];
    if (isObject(target)) codeOf(nested).patch(target, value);
  } else if (value.some((item) => isRecord(item) && patches(nested, item))) {
    const list = instance[step.key];
    if (!Array.isArray(list)) return;
    const { patch } = codeOf(nested);
    value.forEach((item, i) => {
      const target = list[i];
      if (isObject(target) && isRecord(item) && patches(nested, item)) patch(target, item);
    });
  }
}

// Whether the pruner's patch of `plain` sets anything (else it reads nothing of the instance either).
function patches(plan: InstancePlan, plain: Record<string, unknown>): boolean {
  if (!plan.patches) return false;
  for (const step of plan.fields) {
    if (!Object.hasOwn(plain, step.key)) continue;
    if (step.kind === 'plain') return true;
    const value = plain[step.key];
    if (!isObject(value)) continue;
    const nested = step.plan;
    if (Array.isArray(value) ? value.some((item) => isRecord(item) && patches(nested, item)) : patches(nested, value)) {
      return true;
    }
  }
  return false;
}

// class-transformer's instantiateArrayType.
function newArray(arrayType: Class): unknown[] | Set<unknown> {
  const array = new arrayType();
  return array instanceof Set || 'push' in array ? array : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Array.isArray(value);
}
