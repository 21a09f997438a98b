import 'reflect-metadata';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { Class } from '../../core/types';
import { groupByProperty } from './grouping';
import { messageOf, type MessageOf, type MessageSource } from './messages';
import { BUILT_IN, type Predicate } from './rules';

const { defaultMetadataStorage: transformer } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerStorage;
};
const PLAIN_TO_CLASS = 0; // class-transformer's TransformationType.PLAIN_TO_CLASS

/** One built-in rule of a property (`@MaxLength(10)`), as class-validator's executor runs it. */
export interface RulePlan {
  /** The key of the rule in `ValidationError.constraints` (a later rule of the same key replaces the message). */
  type: string;
  test: Predicate;
  /** `{ each: true }`: an array, Set or Map passes when every item does. */
  each: boolean;
  message: MessageOf;
}

/** One `@ValidateNested()` of a property: its message for a value that is neither object nor array. */
export interface NestedPlan {
  message: MessageOf;
  /** What class-validator passes as `object` for that message: the class that declared the decorator. */
  target: object;
}

/** Everything the executor does for one property, in its order. */
export interface PropertyPlan {
  name: string;
  /** `@IsOptional()` and `@ValidateIf()` conditions, all called (class-validator does not short-circuit). */
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** `@IsDefined()` rules, run before the others. */
  defined: RulePlan[];
  rules: RulePlan[];
  nested: NestedPlan[];
}

/** A DTO class read once from class-validator's metadata: what whitelisting keeps, and its properties' plans. */
export interface ClassPlan {
  /** The class's name, which labels its generated check (`UserIn.check`). */
  name: string;
  /** class-validator's `groupByPropertyName` of the class's metadata, without prototype (whitelisting keeps its keys). */
  grouped: Record<string, unknown[]>;
  properties: PropertyPlan[];
}

/** Metadata of `cls` exactly as class-validator's executor asks for it (no groups: `validate` is called without). */
export function metadataOf(cls: Class): ValidationMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
}

/**
 * Why `cls` (or a class it nests) cannot be compiled, as one line (`TaskIn.slug: custom constraint IsSlug`);
 * `undefined` when it can.
 *
 * @example
 * ```ts
 * fallbackReason(TaskIn); // undefined: only built-in rules
 * ```
 */
export function fallbackReason(cls: Class, visiting = new Set<Class>()): string | undefined {
  if (visiting.has(cls)) return undefined;
  visiting.add(cls);
  const storage = getMetadataStorage();
  for (const metadata of metadataOf(cls)) {
    const where = `${cls.name}.${metadata.propertyName}`;
    if (metadata.groups && metadata.groups.length) return `${where}: validation groups`;
    if (metadata.type === 'customValidation' || metadata.type === 'isDefined') {
      const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
      const constraint = constraints[0];
      const name = constraint?.name ?? metadata.constraintCls?.name;
      if (constraints.length !== 1) return `${where}: custom constraint ${name}`;
      if (constraint.async) return `${where}: async constraint ${name}`;
      // Built-ins are registered through registerDecorator with a validator object, which wraps it in this class.
      if (!BUILT_IN.has(name) || metadata.constraintCls.name !== 'CustomConstraint') {
        return `${where}: custom constraint ${name}`;
      }
    } else if (metadata.type === 'nestedValidation') {
      const reason = nestedReason(cls, metadata.propertyName, visiting);
      if (reason) return `${where}: ${reason}`;
    } else if (metadata.type === 'promiseValidation') return `${where}: @ValidatePromise`;
    else if (metadata.type !== 'conditionalValidation' && metadata.type !== 'whitelistValidation') {
      return `${where}: unsupported rule ${metadata.type}`;
    }
  }
  return undefined;
}

// The classes a nested property may hold (its @Type, else its declared type) must compile too.
function nestedReason(cls: Class, property: string, visiting: Set<Class>): string | undefined {
  if (transformer.findTransformMetadatas(cls, property, PLAIN_TO_CLASS).length) return '@Transform on a nested property';
  const type = transformer.findTypeMetadata(cls, property);
  if (type?.options?.discriminator) return '@Type with a discriminator';
  const candidates = [type?.typeFunction(), Reflect.getMetadata('design:type', cls.prototype, property)];
  for (const nested of candidates) {
    if (typeof nested !== 'function' || nested === Array || nested === Object) continue;
    const reason = fallbackReason(nested as Class, visiting);
    if (reason) return `nests ${nested.name}, which falls back (${reason})`;
  }
  return undefined;
}

/** Reads the plan of a class that {@link fallbackReason} accepted. */
export function planOf(cls: Class): ClassPlan {
  const storage = getMetadataStorage();
  const grouped = groupByProperty(metadataOf(cls));
  const properties = Object.keys(grouped).map((name): PropertyPlan => {
    const metadatas = grouped[name];
    const ruleOf = (metadata: ValidationMetadata): RulePlan => {
      const constraint = storage.getTargetValidatorConstraints(metadata.constraintCls)[0];
      const builtIn = BUILT_IN.get(constraint.name)!;
      const instance = constraint.instance as { defaultMessage?: (args: ValidationArguments) => string };
      return {
        type: constraint.name,
        test: builtIn.test(metadata.constraints ?? []),
        each: Boolean(metadata.each),
        message: messageOf({
          message: metadata.message as MessageSource['message'],
          defaultMessage: instance.defaultMessage?.bind(instance),
          defaultReadsValue: builtIn.messageReadsValue,
          property: metadata.propertyName,
          targetName: cls.name,
          constraints: metadata.constraints,
        }),
      };
    };
    return {
      name,
      conditions: metadatas.filter((m) => m.type === 'conditionalValidation').map((m) => m.constraints[0]),
      defined: metadatas.filter((m) => m.type === 'isDefined').map(ruleOf),
      rules: metadatas.filter((m) => m.type === 'customValidation').map(ruleOf),
      nested: metadatas.filter((m) => m.type === 'nestedValidation').map((m) => ({
        target: m.target as object,
        message: messageOf({
          message: m.message as string | undefined,
          property: m.propertyName,
          targetName: (m.target as object).constructor?.name,
          constraints: m.constraints,
        }),
      })),
    };
  });
  return { name: cls.name, grouped, properties };
}
