import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import type { ParamDefinition } from '../metadata';
import { metadataOf } from './compiled/plan';
import { groupByProperty } from './compiled/grouping';
import { transformer } from './declared-shape';

/** What a property of a query or header class is converted to from text (`date`: an ISO 8601 `Date`). */
export type TextType = 'string' | 'number' | 'integer' | 'boolean' | 'date';

/** One property of a `@Query()` / `@Header()` class, read once from its declaration and rules. */
export interface ValueProperty {
  /** The class's property: what the handler reads, and the `field` of its 422 details. */
  property: string;
  /** The query key (the property's name), or the header's lower-case name. */
  key: string;
  type: TextType;
  /** Read from every repeated key (`?tag=a&tag=b`), or a header's comma-separated list. */
  array: boolean;
  /** Neither `@IsOptional()` (nor `@ValidateIf()`) nor a class default: an absent value is `Field required`. */
  required: boolean;
  /** The value the class sets when the key is absent (`limit = 20`), `undefined` when none. */
  default: unknown;
}

/** A class of query or header values, as both the request pipeline and the OpenAPI document read it. */
export interface ValueClass {
  cls: Class;
  location: 'query' | 'header';
  properties: ValueProperty[];
}

/**
 * Whether a `@Query()` / `@Header()` parameter binds a class of values (it was given no name).
 *
 * @example
 * ```ts
 * route.params.filter(isValueClass); // the @Query() query: ListQuery parameters
 * ```
 */
export function isValueClass(param: ParamDefinition): boolean {
  return (param.kind === 'query' || param.kind === 'header') && param.name === undefined;
}

const NOT_CLASSES = new Set<unknown>([Object, Array, String, Number, Boolean, Date, Function, Promise, undefined]);
const cache = new WeakMap<Class, Map<string, ValueClass>>();

/**
 * Reads the class of a `@Query()` / `@Header()` parameter (its `type`, else its declared class) once: every
 * property class-validator knows, with what it is converted to and whether it is required. Throws
 * `TRELLIS_ERR_PARAM_CLASS` (not a class), `TRELLIS_ERR_PARAM_CLASS_UNVALIDATED` (no rules) or
 * `TRELLIS_ERR_PARAM_CLASS_PROPERTY` (a property that cannot come from text: an object, an async rule).
 *
 * @example
 * ```ts
 * valueClassOf('Tasks.list', param, ListQuery).properties; // [{ property: 'limit', key: 'limit', type: 'integer', ... }]
 * ```
 */
export function valueClassOf(label: string, param: ParamDefinition, designType: unknown): ValueClass {
  const location = param.kind as 'query' | 'header';
  const declared = param.type ?? designType;
  if (typeof declared !== 'function' || NOT_CLASSES.has(declared)) {
    const type = typeof declared === 'function' ? declared.name : Array.isArray(declared) ? 'an array' : String(declared);
    const decorator = location === 'query' ? 'Query' : 'Header';
    throw new TrellisError('TRELLIS_ERR_PARAM_CLASS', label, decorator, param.index, type);
  }
  const cls = declared as Class;
  let byLocation = cache.get(cls);
  const known = byLocation?.get(location);
  if (known) return known;
  if (metadataOf(cls).length === 0) throw new TrellisError('TRELLIS_ERR_PARAM_CLASS_UNVALIDATED', label, location, cls.name);
  const refuse = (property: string, reason: string) =>
    new TrellisError('TRELLIS_ERR_PARAM_CLASS_PROPERTY', label, location, `${cls.name}.${property}`, reason);
  const defaults = new cls() as Record<string, unknown>;
  const grouped = groupByProperty(metadataOf(cls));
  const properties = Object.keys(grouped).map((property): ValueProperty => {
    const metadatas = grouped[property];
    if (property === '__proto__' || property === 'constructor') throw refuse(property, 'cannot be named __proto__ or constructor: name it otherwise');
    const design: unknown = Reflect.getMetadata('design:type', cls.prototype, property);
    if (metadatas.some((m) => m.type === 'nestedValidation') || (typeof design === 'function' && !NOT_CLASSES.has(design))) {
      throw refuse(property, 'is an object, and query strings and headers are flat: declare its fields on the class itself');
    }
    const unrunnable = metadatas.map(unrunnableRule).find((rule) => rule !== undefined);
    if (unrunnable) throw refuse(property, `has ${unrunnable}, which a query or header class cannot run: use synchronous rules without groups`);
    const value = defaults[property];
    const array = design === Array || Array.isArray(value) || metadatas.some(isArrayRule);
    const optional = metadatas.some((m) => m.type === 'conditionalValidation');
    const type = array ? itemType(cls, property, metadatas) : scalarType(design, metadatas, value);
    return { property, key: keyOf(location, property), type, array, required: !optional && value === undefined, default: value };
  });
  const valueClass: ValueClass = { cls, location, properties };
  if (!byLocation) cache.set(cls, (byLocation = new Map()));
  byLocation.set(location, valueClass);
  return valueClass;
}

/**
 * The header a property names: a quoted name with a dash as written (`'x-trace-id'`), else the camelCase name in
 * kebab case (`requestId` -> `request-id`); lower case, since Node gives header names so.
 *
 * @example
 * ```ts
 * keyOf('header', 'xTraceId'); // 'x-trace-id'
 * keyOf('query', 'pageSize'); // 'pageSize'
 * ```
 */
export function keyOf(location: 'query' | 'header', property: string): string {
  if (location === 'query') return property;
  if (property.includes('-')) return property.toLowerCase();
  return property.replace(/[A-Z]/g, (letter, at: number) => (at === 0 ? '' : '-') + letter.toLowerCase());
}

// Rules the compiler leaves to class-validator run through its validateSync, which skips async ones; groups never apply.
function unrunnableRule(metadata: ValidationMetadata): string | undefined {
  if (metadata.groups && metadata.groups.length) return 'validation groups';
  if (metadata.type === 'promiseValidation') return '@ValidatePromise()';
  if (metadata.type !== 'customValidation' && metadata.type !== 'isDefined') return undefined;
  const constraints = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  const asynchronous = constraints.find((constraint) => constraint.async);
  return asynchronous ? `the async constraint ${asynchronous.name}` : undefined;
}

const ARRAY_RULES = new Set(['isArray', 'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty', 'arrayContains', 'arrayNotContains', 'arrayUnique']);

function ruleName(metadata: ValidationMetadata): string | undefined {
  if (metadata.type !== 'customValidation') return undefined;
  return getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0]?.name;
}

function isArrayRule(metadata: ValidationMetadata): boolean {
  return metadata.each === true || ARRAY_RULES.has(ruleName(metadata) ?? '');
}

// The type a property's rules ask for (`@IsInt()` an integer, `@Min()` a number, `@IsEnum(Level)` of numbers a
// number...), `undefined` when they say nothing of it.
function ruleType(metadatas: readonly ValidationMetadata[]): TextType | undefined {
  const names = new Set(metadatas.map(ruleName));
  if (names.has('isInt')) return 'integer';
  if (['isNumber', 'min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy'].some((name) => names.has(name))) return 'number';
  if (names.has('isBoolean')) return 'boolean';
  if (names.has('isDate') || names.has('minDate') || names.has('maxDate')) return 'date';
  for (const metadata of metadatas) {
    const name = ruleName(metadata);
    const values = name === 'isEnum' ? Object.values(metadata.constraints[0] ?? {}) : name === 'isIn' ? metadata.constraints[0] : undefined;
    if (Array.isArray(values) && values.some((v) => typeof v === 'number')) return 'number';
  }
  return undefined;
}

function scalarType(design: unknown, metadatas: readonly ValidationMetadata[], value: unknown): TextType {
  const rule = ruleType(metadatas);
  if (design === Number) return rule === 'integer' ? 'integer' : 'number';
  if (design === Boolean) return 'boolean';
  if (design === Date) return 'date';
  if (design === String) return 'string';
  if (rule) return rule;
  if (typeof value === 'number' || typeof value === 'boolean') return typeof value as 'number' | 'boolean';
  if (value instanceof Date) return 'date';
  return 'string';
}

// An array's items: `@Type(() => Number)`, else what its `{ each: true }` rules ask for, else strings.
function itemType(cls: Class, property: string, metadatas: readonly ValidationMetadata[]): TextType {
  const declared: unknown = transformer.findTypeMetadata(cls, property)?.typeFunction();
  if (declared !== undefined && declared !== Array && declared !== Object) return scalarType(declared, [], undefined);
  return ruleType(metadatas.filter((m) => m.each === true)) ?? 'string';
}
