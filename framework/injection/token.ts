import type { Class } from '../core/types';

/**
 * A typed name for something to inject that has no class of its own: an interface, a configuration object,
 * a connection pool. TypeScript records an interface-typed constructor parameter as `Object`, so such a
 * parameter names its token with `@Inject(TOKEN)`.
 *
 * @example
 * ```ts
 * interface Clock { now(): Date }
 * export const CLOCK = new InjectionToken<Clock>('Clock');
 * app.provide({ provide: CLOCK, useValue: { now: () => new Date() } });
 * ```
 */
export class InjectionToken<T = unknown> {
  /** Never set: it carries `T` so `app.provide` and `@Inject` agree on the type. */
  declare readonly type?: T;

  constructor(readonly description: string) {}

  toString(): string {
    return `InjectionToken(${this.description})`;
  }
}

/**
 * What the container looks things up by: a class, an {@link InjectionToken}, or a string or symbol (as in NestJS).
 *
 * @example
 * ```ts
 * const tokens: Token[] = [TaskService, CLOCK, 'DATABASE_URL', Symbol('pool')];
 * ```
 */
export type Token<T = unknown> = Class<T> | InjectionToken<T> | string | symbol;

/** How errors name a token: `TaskService`, `Clock`, `'DATABASE_URL'`, `Symbol(pool)`. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || 'anonymous class';
  if (token instanceof InjectionToken) return token.description;
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}
