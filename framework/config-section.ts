import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationTypes, type ValidationError } from 'class-validator';
import { TrellisError } from './framework-error';
import { settingsDefinitionOf, type SettingsDefinition } from './metadata';
import type { Class } from './core/types';
import { hasValidationRules, joinField } from './pipeline/validate';

/**
 * How {@link Config.section} treats keys its class does not declare (`@Settings(section, options)` sets it too).
 *
 * @example
 * ```ts
 * config.section('admin', AdminSettings, { unknownKeys: 'ignore' }); // keys AdminSettings does not declare are left out
 * ```
 */
export interface SectionOptions {
  /** `'forbid'` (the default, as pydantic-settings): each is a problem, so a misspelt key is caught; `'ignore'`: left out. */
  unknownKeys?: SettingsDefinition['unknownKeys'];
}

/**
 * One setting that does not fit its settings class: where it is and what is wrong, never its value (a setting
 * may be a secret).
 *
 * @example
 * ```ts
 * const problem: ConfigProblem = { path: 'admin.token', keys: ['admin', 'token'], message: 'admin.token must be a string' };
 * ```
 */
export interface ConfigProblem {
  /** `admin.token`, `mail.hosts[0]`. */
  path: string;
  /** The same path as keys from the top of the config (`['mail', 'hosts', '0']`), to find its line. */
  keys: readonly string[];
  /** Each rule it breaks, naming the path: `admin.token must be a string`. */
  message: string;
}

/**
 * A config section that does not fit its settings class (`config.section('admin', AdminSettings)`, or an
 * `@Settings('admin')` class being injected). `problems` lists every failing setting in order, and `path` is
 * the first one's, so a tool can point at its line; the message joins them. No value is ever repeated.
 *
 * @example
 * ```ts
 * try { config.section('admin', AdminSettings); }
 * catch (error) {
 *   if (error instanceof ConfigSectionError) for (const problem of error.problems) console.log(problem.message);
 *   // admin.token must be a string
 * }
 * ```
 */
export class ConfigSectionError extends TrellisError {
  /** The path of the first failing setting (`admin.token`). */
  readonly path: string;
  readonly problems: readonly ConfigProblem[];

  constructor(section: string, settings: string, problems: ConfigProblem[]) {
    super('TRELLIS_ERR_CONFIG_SECTION', section, settings, problems.map((problem) => problem.message).join('; '));
    this.name = 'ConfigSectionError';
    this.path = problems[0]?.path ?? section;
    this.problems = Object.freeze(problems.map((problem) => Object.freeze({ ...problem, keys: Object.freeze([...problem.keys]) })));
  }
}

/**
 * The config value at `section` (a mapping, `undefined` when absent) as a validated, frozen instance of `cls`:
 * class-transformer's `plainToInstance`, then class-validator's `validateSync` (async rules are not awaited).
 * Every failing setting is collected into one {@link ConfigSectionError}.
 */
export function readSection<T extends object>(section: string, cls: Class<T>, value: unknown, options: SectionOptions = {}): T {
  if (!hasValidationRules(cls)) throw new TrellisError('TRELLIS_ERR_SETTINGS_UNVALIDATED', cls.name, section);
  const keys = section.split('.');
  if (value !== undefined && value !== null && !isMapping(value)) {
    throw new ConfigSectionError(section, cls.name, [{ path: section, keys, message: `${section} must be a mapping` }]);
  }
  const unknownKeys = options.unknownKeys ?? settingsDefinitionOf(cls)?.unknownKeys ?? 'forbid';
  // A copy: whitelisting deletes keys, and the config's own values are frozen.
  const instance = plainToInstance(cls, structuredClone(value ?? {}) as object);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: unknownKeys === 'forbid',
    forbidUnknownValues: true,
    // Kept here, never put in a message: the target tells a nested class's settings, the value whether it is set.
    validationError: { target: true, value: true },
  });
  const problems: ConfigProblem[] = [];
  for (const error of errors) collect(error, { path: section, keys }, problems);
  missingSections(instance, { path: section, keys }, problems);
  if (problems.length) throw new ConfigSectionError(section, cls.name, problems);
  return deepFreeze(instance);
}

interface Place {
  path: string;
  keys: readonly string[];
}

function collect(error: ValidationError, parent: Place, problems: ConfigProblem[]): void {
  const property = error.property;
  const place = property === undefined ? parent : { path: joinField(parent.path, property), keys: [...parent.keys, String(property)] };
  const messages = Object.entries(error.constraints ?? {}).map(([rule, message]) => describe(rule, message, error, place));
  if (messages.length) {
    const unset = property !== undefined && (error.value === undefined || error.value === null);
    // A setting that is not there breaks each of its rules: one line says so, with the first rule.
    const message = unset ? `${place.path} ${error.value === undefined ? 'is not set' : 'has no value'} (${withoutPath(messages[0], place.path)})` : messages.join('; ');
    problems.push({ ...place, message });
  }
  for (const child of error.children ?? []) collect(child, place, problems);
}

// class-validator names the property alone (`token must be a string`); the path names the setting in the file.
function describe(rule: string, message: string, error: ValidationError, { path }: Place): string {
  const property = String(error.property);
  if (rule === ValidationTypes.WHITELIST) return `${path} is not a setting of ${error.target?.constructor.name} (${settingsOf(error.target)})`;
  if (rule === ValidationTypes.NESTED_VALIDATION) return `${path} must be ${designType(error) === Array ? 'a list' : 'a mapping'}`;
  if (rule === 'unknownValue') return `${path} cannot be checked: its class has no rules (a nested class needs @Type(() => TheClass) next to @ValidateNested())`;
  if (message.startsWith(`${property} `)) return `${path}${message.slice(property.length)}`;
  if (message.startsWith(`each value in ${property} `)) return `each value in ${path}${message.slice(14 + property.length)}`;
  return `${path}: ${message}`;
}

function withoutPath(message: string, path: string): string {
  return message.startsWith(`${path} `) ? `it${message.slice(path.length)}` : message;
}

function settingsOf(target: object | undefined): string {
  const names = target ? declaredSettings(target.constructor) : [];
  return names.length ? `its settings are ${names.join(', ')}` : 'it declares no settings';
}

function declaredSettings(cls: Function): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}

function designType(error: ValidationError): unknown {
  const prototype = error.target && Object.getPrototypeOf(error.target);
  return prototype ? Reflect.getMetadata('design:type', prototype, String(error.property)) : undefined;
}

// class-validator skips `@ValidateNested()` on a missing value: a required nested section absent would be
// silently `undefined`, so each is a problem unless `@IsOptional()` says it may be absent.
function missingSections(instance: object, place: Place, problems: ConfigProblem[]): void {
  const rules = getMetadataStorage().getTargetValidationMetadatas(instance.constructor, '', true, false);
  const optional = new Set(rules.filter((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION).map((rule) => rule.propertyName));
  const nested = new Set(rules.filter((rule) => rule.type === ValidationTypes.NESTED_VALIDATION).map((rule) => rule.propertyName));
  for (const property of nested) {
    const child = { path: joinField(place.path, property), keys: [...place.keys, property] };
    const value = (instance as Record<string, unknown>)[property];
    if (value === undefined || value === null) {
      const reported = problems.some((problem) => problem.path === child.path);
      if (!optional.has(property) && !reported) {
        problems.push({ ...child, message: `${child.path} ${value === undefined ? 'is not set' : 'has no value'} (it must be a mapping)` });
      }
    } else if (isMapping(value)) missingSections(value, child, problems);
  }
}

function isMapping(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
