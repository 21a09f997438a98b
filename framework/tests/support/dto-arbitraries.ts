import fc from 'fast-check';
import { Type } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import * as cv from 'class-validator';
import type { ValidationArguments, ValidatorConstraintInterface } from 'class-validator';
import type { Class } from '../../metadata';
import { BUILT_IN } from '../../pipeline/compiled/rules';
import { CATALOG, CONSTRAINTS, FAMILIES, type Rule } from './decorator-catalog';
import { EXTRA_KEYS, JsonObject, anyJson, renderJson } from './json-values';

const { defaultMetadataStorage: transformer } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerStorage;
};

// Generated DTO classes for validation-equivalence.test.ts: a spec (plain data fast-check can show and shrink),
// the class built from it at run time by applying decorators programmatically (a fresh class each time, so
// metadata never collides), and the bodies worth sending to it (valid, boundary, wrong types, missing and extra keys).

/** When a property is validated at all: always, `@IsOptional()`, or `@ValidateIf` on its value or a sibling. */
export type Guard = 'none' | 'IsOptional' | 'ValidateIf(value !== null)' | 'ValidateIf(sibling !== undefined)';

/** A property holding a nested DTO (or an array of them). */
export interface NestedSpec {
  /** 'self': the class nests itself (`@Type(() => Dto)` inside Dto). */
  child: ClassSpec | 'self';
  array: boolean;
  // validated: @ValidateNested() @Type(() => Child); untyped: @ValidateNested() alone; unvalidated: @Type() alone
  mode: 'validated' | 'untyped' | 'unvalidated';
  message: string | undefined;
}

export interface PropertySpec {
  key: string;
  guard: Guard;
  rules: Rule[];
  nested: NestedSpec | undefined;
  /** Rules the compiler must leave to class-validator: the class (and every class nesting it) falls back. */
  fallback: FallbackRule | undefined;
}

export interface ClassSpec {
  properties: PropertySpec[];
  /** A generated class this one extends (its properties may be redeclared). */
  base: ClassSpec | undefined;
}

/** Rules that make a class fall back: a custom constraint, an async one, a rule with groups. */
export type FallbackRule = 'custom' | 'async' | 'groups';

@cv.ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be even`;
  }
}

@cv.ValidatorConstraint({ name: 'isEvenLater', async: true })
class IsEvenLater implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    return typeof value === 'number' && value % 2 === 0;
  }
}

const FALLBACKS: Record<FallbackRule, PropertyDecorator> = {
  custom: cv.Validate(IsEven),
  async: cv.Validate(IsEvenLater),
  groups: cv.IsString({ groups: ['admin'] }),
};

const KEYS = ['a', 'b', 'name', 'count', 'items', 'tag', 'x_1', 'camelCase', '1', '10'];
const anyRule = fc.oneof(...Object.values(CATALOG));
// one rule often, three seldom: properties stay satisfiable often enough for valid bodies to pass
const some = (rule: fc.Arbitrary<Rule>) =>
  fc.oneof({ weight: 5, arbitrary: fc.tuple(rule) }, { weight: 3, arbitrary: fc.tuple(rule, rule) }, { weight: 2, arbitrary: fc.tuple(rule, rule, rule) });
// Mostly decorators the compiler supports (a class with any other falls back: nothing to compare), in families
// that hold together; now and then any mix of the catalog.
const compiles = (name: string) => BUILT_IN.has(CONSTRAINTS[name]) || name === 'Allow';
const families = Object.values(FAMILIES).map((names) => names.filter(compiles)).filter((names) => names.length > 0);
const rules = fc.oneof(
  { weight: 1, arbitrary: some(anyRule) },
  ...families.map((names) => ({ weight: 3, arbitrary: some(fc.oneof(...names.map((name) => CATALOG[name]))) })),
);
const guard = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Guard>('none') },
  { weight: 2, arbitrary: fc.constant<Guard>('IsOptional') },
  { weight: 1, arbitrary: fc.constantFrom<Guard>('ValidateIf(value !== null)', 'ValidateIf(sibling !== undefined)') },
);
const fallback = fc.oneof(
  { weight: 80, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom<FallbackRule>('custom', 'async', 'groups') },
);
const ARRAY_RULES = [CATALOG.IsArray, CATALOG.ArrayMinSize, CATALOG.ArrayMaxSize, CATALOG.ArrayNotEmpty];
const OBJECT_RULES = [CATALOG.IsObject, CATALOG.IsDefined, CATALOG.IsNotEmpty];

/**
 * DTO specs with 1-3 properties, nested `depth` levels at most, sometimes extending another generated class.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(classSpec(2), (spec) => buildClass(spec) !== undefined));
 * ```
 */
export function classSpec(depth: number): fc.Arbitrary<ClassSpec> {
  const own = fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 }).chain((keys) =>
    fc.tuple(...keys.map((key) => propertySpec(key, depth))),
  );
  const base = depth > 0 ? fc.option(classSpec(0), { freq: 8, nil: undefined }) : fc.constant(undefined);
  return fc.record({ properties: own, base });
}

function propertySpec(key: string, depth: number): fc.Arbitrary<PropertySpec> {
  const plain = fc.record({
    key: fc.constant(key),
    guard,
    rules,
    nested: fc.constant(undefined),
    fallback,
  });
  if (depth === 0) return plain;
  const nested = fc.boolean().chain((array) =>
    fc.record({
      key: fc.constant(key),
      guard,
      rules: fc.array(fc.oneof(...(array ? ARRAY_RULES : OBJECT_RULES)), { maxLength: 2 }),
      nested: fc.record({
        child: fc.oneof({ weight: 8, arbitrary: classSpec(depth - 1) }, { weight: 1, arbitrary: fc.constant<'self'>('self') }),
        array: fc.constant(array),
        mode: fc.oneof({ weight: 8, arbitrary: fc.constant<NestedSpec['mode']>('validated') }, fc.constantFrom<NestedSpec['mode']>('untyped', 'unvalidated')),
        message: fc.option(fc.constantFrom('$property: no', 'nested $value $constraint1'), { freq: 5, nil: undefined }),
      }),
      fallback: fc.constant(undefined),
    }),
  );
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: nested });
}

let classes = 0;
const probes = new WeakMap<PropertySpec, (value: unknown) => boolean>();

// Whether a value passes a property's rules alone (no guard), asked of class-validator on a one-property class.
function passes(property: PropertySpec): (value: unknown) => boolean {
  let probe = probes.get(property);
  if (!probe) {
    const Probe = class {} as Class;
    for (const { decorator } of property.rules) decorator(Probe.prototype, property.key);
    probe = (value) => {
      const instance = Object.assign(new Probe(), { [property.key]: JSON.parse(renderJson(value)) });
      try {
        return cv.validateSync(instance, { forbidUnknownValues: false }).length === 0;
      } catch {
        return false; // IsNotEmptyObject calls value.hasOwnProperty, which a body may shadow
      }
    };
    probes.set(property, probe);
  }
  return probe;
}

/**
 * A fresh class with the spec's decorators applied in order (guard, rules, nested), named `Dto<n>`.
 *
 * @example
 * ```ts
 * const Dto = buildClass({ base: undefined, properties: [{ key: 'a', guard: 'none', rules: [isString], nested: undefined, fallback: undefined }] });
 * ```
 */
export function buildClass(spec: ClassSpec): Class {
  const base = spec.base && buildClass(spec.base);
  const name = `Dto${++classes}`;
  const cls = (base ? { [name]: class extends (base as new () => object) {} } : { [name]: class {} })[name] as Class;
  const siblings = spec.properties.map((p) => p.key);
  for (const property of spec.properties) decorate(cls, property, siblings);
  return cls;
}

function decorate(cls: Class, property: PropertySpec, siblings: string[]): void {
  const { key, nested } = property;
  const prototype = cls.prototype as object;
  const sibling = siblings.find((k) => k !== key) ?? key;
  if (property.guard === 'IsOptional') cv.IsOptional()(prototype, key);
  if (property.guard === 'ValidateIf(value !== null)') cv.ValidateIf((_, value) => value !== null)(prototype, key);
  if (property.guard === 'ValidateIf(sibling !== undefined)') cv.ValidateIf((o) => o[sibling] !== undefined)(prototype, key);
  for (const { decorator } of property.rules) decorator(prototype, key);
  if (property.fallback) FALLBACKS[property.fallback](prototype, key);
  if (nested) {
    const child = nested.child === 'self' ? cls : buildClass(nested.child);
    const options = { ...(nested.array ? { each: true } : {}), ...(nested.message ? { message: nested.message } : {}) };
    if (nested.mode !== 'unvalidated') cv.ValidateNested(options)(prototype, key);
    if (nested.mode !== 'untyped') Type(() => child)(prototype, key);
    // a property with @Type() alone still needs a rule to stay in the whitelist
    if (nested.mode === 'unvalidated' && property.rules.length === 0 && property.guard === 'none') cv.Allow()(prototype, key);
  }
}

/**
 * Whether a class, or a class it validates as nested (`@ValidateNested() @Type()`), holds a rule the compiler must leave to class-validator:
 * read from class-validator's metadata, since a subclass redeclaring a property drops the base's rules of the same
 * type (`getTargetValidationMetadatas`).
 */
export function needsFallback(cls: Class, seen = new Set<Class>()): boolean {
  if (seen.has(cls)) return false;
  seen.add(cls);
  return cv.getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).some((metadata) => {
    if (metadata.groups?.length || metadata.constraintCls === IsEven || metadata.constraintCls === IsEvenLater) return true;
    // a @Type() without @ValidateNested() is never validated: its class's rules do not matter
    if (metadata.type !== 'nestedValidation') return false;
    const type = transformer.findTypeMetadata(cls, metadata.propertyName);
    return type !== undefined && needsFallback(type.typeFunction() as Class, seen);
  });
}

/** The decorator names a spec applies (bases and nested classes too). */
export function rulesOf(spec: ClassSpec): string[] {
  return [
    ...(spec.base ? rulesOf(spec.base) : []),
    ...spec.properties.flatMap((p) => [
      ...(p.guard === 'none' ? [] : [p.guard.replace(/\(.*/, '')]),
      ...p.rules.map((r) => r.name),
      ...(p.nested ? [...(p.nested.mode === 'unvalidated' ? [] : ['ValidateNested']), ...(p.nested.child === 'self' ? [] : rulesOf(p.nested.child))] : []),
    ]),
  ];
}

/**
 * Bodies for a spec as JSON objects. Valid ones: every declared key present (unless optional) with a value passing
 * its rules, nested bodies valid too, undeclared keys beside them. Mutated ones: each declared key sometimes
 * missing or holding another value of its rules or any JSON value, nested bodies mutated in turn; undeclared
 * keys (`__proto__` among them) too. Keys in a shuffled order either way.
 *
 * @example
 * ```ts
 * fc.sample(body(spec, 'mutated'), 1); // [JsonObject { entries: [['name', '😀'], ['__proto__', null]] }]
 * ```
 */
export function body(spec: ClassSpec, kind: 'valid' | 'mutated'): fc.Arbitrary<JsonObject> {
  // a property the class redeclares replaces the base's (class-validator drops the base's rules of the same type)
  const own = new Set(spec.properties.map((p) => p.key));
  const properties = [...(spec.base?.properties ?? []).filter((p) => !own.has(p.key)), ...spec.properties];
  const declared = properties.map((p) => {
    const entry = fc.tuple(fc.constant(p.key), valueFor(p, kind, spec));
    if (kind === 'valid' && p.guard === 'none') return entry;
    return fc.option(entry, { freq: kind === 'valid' ? 3 : 6, nil: undefined });
  });
  // mutated bodies may repeat a declared key (JSON.parse keeps the last value at the first key's place)
  const keys = kind === 'valid' ? EXTRA_KEYS : [...EXTRA_KEYS, ...properties.map((p) => p.key)];
  const extra = fc.array(fc.tuple(fc.constantFrom(...keys), anyJson), { maxLength: 2 });
  return fc
    .tuple(fc.tuple(...declared), extra)
    .chain(([present, more]) => {
      const entries = [...present.filter((e) => e !== undefined), ...more] as Array<[string, unknown]>;
      return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length });
    })
    .map((entries) => new JsonObject(entries));
}

function valueFor(property: PropertySpec, kind: 'valid' | 'mutated', owner: ClassSpec): fc.Arbitrary<unknown> {
  const { nested } = property;
  if (!nested) {
    // A passing value is the first of a few candidates that passes every rule of the property.
    const candidate = fc.oneof(...property.rules.map((r) => r.values));
    const passing = fc.array(candidate, { minLength: 6, maxLength: 6 }).map((values) => values.find(passes(property)) ?? values[0]);
    if (kind === 'valid') return passing;
    return fc.oneof({ weight: 4, arbitrary: passing }, { weight: 2, arbitrary: candidate }, { weight: 1, arbitrary: anyJson });
  }
  // a class nesting itself gets one level of itself, without the nesting property
  const child = nested.child !== 'self' ? nested.child : { ...owner, properties: owner.properties.filter((p) => p !== property) };
  const one = body(child, kind);
  if (kind === 'valid') return nested.array ? fc.array(one, { maxLength: 3 }) : one;
  const item = fc.oneof({ weight: 5, arbitrary: one }, { weight: 1, arbitrary: anyJson });
  return fc.oneof(
    { weight: 5, arbitrary: nested.array ? fc.array(item, { maxLength: 3 }) : one },
    { weight: 1, arbitrary: nested.array ? one : fc.array(item, { maxLength: 2 }) },
    { weight: 1, arbitrary: anyJson },
  );
}
