import { Config } from './config';
import type { SectionOptions } from './config-section';
import { metadataOf, settingsDefinitionOf } from './metadata';
import type { Class } from './core/types';

/**
 * Makes a class a typed section of the config (as NestJS's `registerAs` with a validated class, or a
 * pydantic-settings model): a constructor parameter typed with it receives the section at `section`, checked
 * against the class's class-validator rules when the app starts, as `config.section(section, cls)` reads it.
 * Nothing else to provide. A setting that does not fit stops the start, each one listed with its path
 * (`config.yaml:9: admin.token must be a string` under `trellis run`), and `trellis doctor` checks every
 * settings class a project injects without building anything. A key the class does not declare is refused
 * unless `unknownKeys: 'ignore'`.
 *
 * @example
 * ```ts
 * @Settings('admin')
 * export class AdminSettings {
 *   @IsString() @IsNotEmpty() token!: string;
 * }
 *
 * @Injectable()
 * export class RequireToken extends Middleware {
 *   constructor(private readonly admin: AdminSettings) { super(); }   // admin.token: string, checked at startup
 * }
 * ```
 */
export function Settings(section: string, options: SectionOptions = {}): ClassDecorator {
  return (target) => {
    metadataOf(target).settings = { section, unknownKeys: options.unknownKeys ?? 'forbid' };
  };
}

/**
 * The config section a class was declared for with `@Settings(section)` (its own decorator, not a base
 * class's); undefined for any other class.
 *
 * @example
 * ```ts
 * settingsSectionOf(AdminSettings); // 'admin'
 * settingsSectionOf(TaskService); // undefined
 * ```
 */
export function settingsSectionOf(cls: unknown): string | undefined {
  return typeof cls === 'function' ? settingsDefinitionOf(cls)?.section : undefined;
}

/** What the container provides for a `@Settings` class: a factory reading its section from the injected `Config`. */
export interface SettingsProvider<T> {
  provide: Class<T>;
  useFactory: (config: Config) => T;
  inject: [typeof Config];
}

/**
 * How to provide a `@Settings` class (a factory of `config.section(...)`, given the app's `Config`);
 * undefined for any other class.
 *
 * @example
 * ```ts
 * settingsProvider(AdminSettings); // { provide: AdminSettings, useFactory: (config) => config.section('admin', AdminSettings), inject: [Config] }
 * ```
 */
export function settingsProvider<T extends object>(cls: Class<T>): SettingsProvider<T> | undefined {
  const section = settingsSectionOf(cls);
  if (section === undefined) return undefined;
  return { provide: cls, useFactory: (config) => config.section(section, cls), inject: [Config] };
}
