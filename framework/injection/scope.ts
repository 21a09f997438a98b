/**
 * How long what the container gives lives: `'singleton'` (the default), one per app, built when it starts;
 * `'request'`, one per request that needs it, made when the request needs it and torn down after its response.
 *
 * @example
 * ```ts
 * const scope: Scope = 'request';
 * app.provide({ provide: TENANT, scope, useFactory: (request: Request) => request.headers['x-tenant'], inject: [Request] });
 * ```
 */
export type Scope = 'singleton' | 'request';

/**
 * Options of `@Injectable()`.
 *
 * @example
 * ```ts
 * @Injectable({ scope: 'request' })
 * class UnitOfWork {}
 * ```
 */
export interface InjectableOptions {
  /** `'request'` makes one instance per request (see {@link Scope}); `'singleton'` by default. */
  scope?: Scope;
}

const scopes = new WeakMap<Function, Scope>();

/** Records the scope `@Injectable({ scope })` gives `cls`. */
export function recordScope(cls: Function, scope: Scope): void {
  scopes.set(cls, scope);
}

/** The scope `@Injectable` gave `cls` or its nearest decorated base class; undefined when none says. */
export function declaredScope(cls: Function): Scope | undefined {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const scope = scopes.get(current);
    if (scope) return scope;
  }
  return undefined;
}
