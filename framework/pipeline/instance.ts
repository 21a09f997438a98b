import { plainToInstance } from 'class-transformer';
import type { Class } from '../metadata';
import { pruner, skipsAssign } from './declared-shape';
import { type InstancePlan, instancePlan, type NestedStep } from './instance-plan';

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
 * `plainToInstance` would do, key by key, from the metadata read here once (see instance-plan.ts). Any other
 * class (`@Transform`, `@Expose`, `@Exclude`, a `@Type` with options or not validated as nested...) keeps
 * class-transformer. Compiled on first use, so that a class nesting itself, or one declared later, compiles.
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
    build = (plain) => (compiled ??= compile(cls))(plain);
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

function compile(cls: Class): InstanceBuilder {
  const plan = instancePlan(cls);
  if (!plan) return transformerPath(cls);
  return (plain) => {
    const instance = construct(plan, plain);
    patch(plan, instance, plain);
    return instance;
  };
}

function transformerPath(cls: Class): InstanceBuilder {
  const prune = pruner(cls);
  return (plain) => {
    const { input, patch: patchPlain } = prune(plain);
    const instance = plainToInstance(cls, input) as Record<string, unknown>;
    patchPlain?.(instance);
    return instance;
  };
}

// What plainToInstance does with the pruned body: only nested fields reach it (plain ones are set by `patch`).
function construct(plan: InstancePlan, plain: Record<string, unknown>): Record<string, unknown> {
  const instance = new plan.cls() as Record<string, unknown>;
  const usual = instance.constructor === plan.cls;
  for (const step of plan.nested) {
    const { key } = step;
    if (!Object.hasOwn(plain, key)) continue;
    // class-transformer skips a key its constructor's prototype has without setter, or a function on the instance.
    if ((usual ? step.protoSkip : skipsOwnPrototype(instance, key)) || instance[key] instanceof Function) continue;
    instance[key] = convert(step, plain[key]);
  }
  return instance;
}

function convert(step: NestedStep, value: unknown): unknown {
  if (Array.isArray(value)) {
    const list = step.arrayType ? newArray(step.arrayType) : [];
    value.forEach((item) => {
      // The pruner hands an array in an array to class-transformer as it is.
      const built = Array.isArray(item) ? plainToInstance(step.plan.cls, item) : isObject(item) ? construct(step.plan, item) : item;
      if (list instanceof Set) list.add(built);
      else list.push(built);
    });
    return list;
  }
  return isObject(value) ? construct(step.plan, value) : value;
}

// What the pruner's patch does after plainToInstance: plain fields set, nested ones patched where they have any.
function patch(plan: InstancePlan, instance: Record<string, unknown>, plain: Record<string, unknown>): void {
  const usual = Object.getPrototypeOf(instance) === plan.cls.prototype;
  for (const step of plan.fields) {
    const { key } = step;
    if (!Object.hasOwn(plain, key)) continue;
    const value = plain[key];
    if (step.kind === 'plain') {
      if (!(usual ? step.skip : skipsAssign(Object.getPrototypeOf(instance), key))) instance[key] = value;
    } else if (isObject(value)) {
      const nested = step.plan;
      if (!Array.isArray(value)) {
        if (!patches(nested, value)) continue;
        const target = instance[key];
        if (isObject(target)) patch(nested, target, value);
      } else if (value.some((item) => isRecord(item) && patches(nested, item))) {
        const list = instance[key];
        if (!Array.isArray(list)) continue;
        value.forEach((item, i) => {
          const target = list[i];
          if (isObject(target) && isRecord(item) && patches(nested, item)) patch(nested, target, item);
        });
      }
    }
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

// class-transformer's rule (TransformOperationExecutor): the key on the instance's constructor's prototype, no setter.
function skipsOwnPrototype(instance: Record<string, unknown>, key: string): boolean {
  const prototype = (instance.constructor as { prototype?: object }).prototype;
  if (!prototype) return false;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return descriptor !== undefined && !descriptor.set;
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
