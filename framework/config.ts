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
