import type { Class } from '../core/types';
import { declaredFields, PLAIN_TO_CLASS, skipsAssign, transformer } from './declared-shape';

/** A DTO property class-transformer would build (validated as nested, `@Type(() => Item)`). */
export interface NestedStep {
  kind: 'nested';
  key: string;
  target: Class;
  /** The target's plan (set once every class reached has one). */
  plan: InstancePlan;
  /** The property's design type when an array is made of something else than an Array (class-transformer's). */
  arrayType: Class | undefined;
  /** The class's prototype has the key without setter: class-transformer leaves it. */
  protoSkip: boolean;
}

/** A DTO property set as it is after class-transformer (the pruner's plain field). */
export interface PlainStep {
  kind: 'plain';
  key: string;
  /** A method or a getter without setter up the prototype chain: the pruner leaves it. */
  skip: boolean;
}

/** What {@link instancePlan} reads once of a class's metadata. */
export interface InstancePlan {
  cls: Class;
  /** Nested properties, in the order class-transformer meets them (`Object.keys` of the pruned body). */
  nested: NestedStep[];
  /** Every property, in the pruner's order (its patch's). */
  fields: Array<NestedStep | PlainStep>;
  /** Whether any class it reaches has a plain field (else a patch never sets anything). */
  patches: boolean;
}

// What class-transformer converts by itself when it is a @Type target.
const CONVERTED = new Set<unknown>([String, Number, Boolean, Date, Buffer, Map, Set, Array, Object, Promise]);

const plans = new WeakMap<Class, InstancePlan | null>();

/**
 * The plan of `cls` when every class it reaches (itself, its nested `@Type` targets...) is built alike without
 * class-transformer; `undefined` when any one needs class-transformer (see {@link ownPlan}).
 *
 * @example
 * ```ts
 * instancePlan(TaskIn)?.fields.map((field) => field.key); // ['title', 'description', 'completed']
 * ```
 */
export function instancePlan(cls: Class): InstancePlan | undefined {
  const known = plans.get(cls);
  if (known !== undefined) return known ?? undefined;
  const reached = new Map<Class, { plan: InstancePlan; targets: Class[] }>();
  const queue = [cls];
  for (let next = queue.pop(); next; next = queue.pop()) {
    if (reached.has(next)) continue;
    const own = ownPlan(next);
    if (!own) {
      plans.set(cls, null);
      return undefined;
    }
    reached.set(next, own);
    queue.push(...own.targets);
  }
  // Every class reached reaches only classes of this set: all of them are built without class-transformer.
  const patches = [...reached.values()].some(({ plan }) => plan.fields.some((field) => field.kind === 'plain'));
  for (const [target, { plan }] of reached) {
    plan.patches = patches;
    for (const step of plan.nested) step.plan = reached.get(step.target)!.plan;
    plans.set(target, plan);
  }
  return reached.get(cls)!.plan;
}

/**
 * What `plainToInstance` does with the pruned body of `cls` alone, when it is only: `new cls()`, then every
 * nested property built from its `@Type` target. Undefined when class-transformer could do more: a class-wide
 * or property `@Expose`/`@Exclude` (an exposed property is added even when absent), a `@Transform`, a `@Type`
 * with options (discriminator...) or a type function taking its options, a target class-transformer converts
 * itself (String, Date...) or a Map, a property the pruner hands to class-transformer (a `@Type` not validated
 * as nested), and a `__proto__` or `constructor` property.
 */
function ownPlan(cls: Class): { plan: InstancePlan; targets: Class[] } | undefined {
  const none = undefined as unknown as string; // class-wide metadata is filed under property `undefined`
  if (transformer.findExposeMetadata(cls, none) || transformer.findExcludeMetadata(cls, none)) return undefined;
  if (transformer.getExposedMetadatas(cls).length > 0) return undefined;
  const plan: InstancePlan = { cls, nested: [], fields: [], patches: true };
  const targets: Class[] = [];
  for (const field of declaredFields(cls)) {
    const { key } = field;
    if (field.kind === 'transformed' || key === '__proto__' || key === 'constructor') return undefined;
    if (field.kind === 'plain') {
      plan.fields.push({ kind: 'plain', key, skip: skipsAssign(cls.prototype, key) });
      continue;
    }
    const type = transformer.findTypeMetadata(cls, key);
    if (
      !type || Object.keys(type.options ?? {}).length > 0 || type.typeFunction.length > 0 ||
      type.reflectedType === Map || CONVERTED.has(field.target) || transformer.findExcludeMetadata(cls, key) ||
      transformer.findTransformMetadatas(cls, key, PLAIN_TO_CLASS).length > 0
    ) return undefined;
    const target = field.target;
    targets.push(target);
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, key);
    const reflected = type.reflectedType as Class | undefined;
    plan.fields.push({
      kind: 'nested',
      key,
      target,
      plan: undefined as unknown as InstancePlan,
      arrayType: reflected === undefined || reflected === Array ? undefined : reflected,
      protoSkip: descriptor !== undefined && !descriptor.set,
    });
  }
  plan.nested = plan.fields.filter((field): field is NestedStep => field.kind === 'nested');
  // Object.keys lists integer-like keys first, in ascending order.
  plan.nested.sort((a, b) => indexOrder(a.key) - indexOrder(b.key));
  return { plan, targets };
}

function indexOrder(key: string): number {
  return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1 ? Number(key) - 2 ** 32 : 0;
}
