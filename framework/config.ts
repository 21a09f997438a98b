import { readSection, type SectionOptions } from './config-section';
import { TrellisError } from './framework-error';
import type { Class } from './core/types';

/**
 * Settings of an app (what `trellis run` reads from `config.yaml`), read by dotted path. Provide an
 * instance to the app and routers, services and middleware receive it by constructor injection.
 *
 * @example
 * ```ts
 * const config = new Config({ server: { port: 8000 }, admin: { token: 's3cret' } });
 * app.provide(config);
 *
 * @Injectable()
 * class RequireToken extends Middleware {
 *   constructor(private readonly config: Config) { super(); }
 *   dispatch(request: Request, callNext: CallNext) {
 *     const token = this.config.get<string>('admin.token');
 *     ...
 *   }
 * }
 * ```
 */
export class Config {
  readonly #values: Readonly<Record<string, unknown>>;

  /** `values` is copied and frozen: settings cannot change behind the app's back. */
  constructor(values: Record<string, unknown> = {}) {
    this.#values = frozenCopy(values) as Record<string, unknown>;
  }

  /**
   * The value at `path` (`'server.port'`, `'admin.token'`), or `fallback` when a segment is missing.
   * A `null` value in the file is returned as `null`.
   *
   * @example
   * ```ts
   * config.get<number>('server.port');          // 8000
   * config.get('features.beta', false);          // false when absent
   * ```
   */
  get<T = unknown>(path: string): T | undefined;
  get<T>(path: string, fallback: T): T;
  get<T>(path: string, fallback?: T): T | undefined {
    let value: unknown = this.#values;
    for (const key of path.split('.')) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return fallback;
      value = (value as Record<string, unknown>)[key];
    }
    return value as T;
  }

  /**
   * The non-empty string at `path`, for settings that must be text (a token, a URL, a name). Anything else
   * (`true`, a number, a list, a mapping, `null`, `''`) throws a {@link ConfigValueError} naming `path`, as
   * does a missing value when no `fallback` is given: read it in a constructor and a typo in config.yaml
   * stops the app at startup (`trellis run` and `doctor` point at its line) instead of weakening it.
   *
   * @example
   * ```ts
   * const token = config.string('admin.token');              // throws unless a non-empty string is set
   * const region = config.string('storage.region', 'eu-1');  // 'eu-1' when absent; still checked when set
   * ```
   */
  string(path: string): string;
  string<T>(path: string, fallback: T): string | T;
  string<T>(path: string, fallback?: T): string | T {
    const missing = {};
    const value = this.get<unknown>(path, missing);
    if (value === missing) {
      if (arguments.length > 1) return fallback as T;
      throw new ConfigValueError(path, 'a non-empty string', 'nothing (it is not set)');
    }
    if (typeof value === 'string' && value !== '') return value;
    throw new ConfigValueError(path, 'a non-empty string', kindOf(value));
  }

  /**
   * The section at `path` (`'admin'`, `'services.mail'`) as an instance of `cls`, checked against its
   * class-validator rules (`@ValidateNested()` with `@Type(() => Class)` for nested mappings) and frozen. Every
   * setting that does not fit, a missing one included, is listed in one {@link ConfigSectionError}
   * (`admin.token must be a string`; never the value): read it in a constructor and `trellis run` stops at the
   * first one's line in config.yaml, `doctor` lists them all. A key the class does not declare is one too,
   * unless `unknownKeys: 'ignore'`. An absent section is read as an empty one, so only optional settings may be
   * missing. `@Settings(path)` on the class makes it injectable instead.
   *
   * @example
   * ```ts
   * class AdminSettings {
   *   @IsString() @IsNotEmpty() token!: string;
   *   @IsOptional() @IsInt() @Min(1) maxSessions?: number;
   * }
   * const admin = config.section('admin', AdminSettings);   // AdminSettings
   * admin.token;                                            // string
   * ```
   */
  section<T extends object>(path: string, cls: Class<T>, options?: SectionOptions): T {
    return readSection(path, cls, this.get(path), options);
  }

  /** Whether `path` is set (to anything, `null` included). */
  has(path: string): boolean {
    const missing = {};
    return this.get(path, missing) !== missing;
  }

  /** Every value, as a frozen plain object. */
  toJSON(): Readonly<Record<string, unknown>> {
    return this.#values;
  }
}

/**
 * A setting of the wrong kind, thrown by the typed getters of {@link Config} (`config.string(...)`). Its `path`
 * names the setting (`'admin.token'`), so a tool can point at it in the file it came from.
 *
 * @example
 * ```ts
 * try { new Config({ admin: { token: true } }).string('admin.token'); }
 * catch (error) { if (error instanceof ConfigValueError) console.log(error.path); } // 'admin.token'
 * ```
 */
export class ConfigValueError extends TrellisError {
  constructor(
    readonly path: string,
    expected: string,
    got: string,
  ) {
    super('TRELLIS_ERR_CONFIG_VALUE', path, expected, got);
    this.name = 'ConfigValueError';
  }
}

// The kind of a value, never the value itself: a mistyped setting may be a secret.
function kindOf(value: unknown): string {
  if (value === null) return 'null (no value)';
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const copy: Record<string, unknown> = {};
    // defineProperty, not assignment: a `__proto__` key from a file stays a plain key.
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: frozenCopy(item), enumerable: true });
    }
    return Object.freeze(copy);
  }
  return value;
}
