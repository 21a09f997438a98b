import type { Class } from '../core/types';
import type { Scope } from './scope';
import type { InjectionToken, Token } from './token';

/**
 * What `app.provide` takes besides a class or an instance: a token and how to make its value. A factory may be
 * async (it runs in the startup phase, before the port opens) and receives the tokens of `inject`, in order.
 *
 * @example
 * ```ts
 * app.provide(
 *   { provide: CLOCK, useValue: systemClock },
 *   { provide: Mailer, useClass: ConsoleMailer },
 *   { provide: DB_POOL, useFactory: async (config: Config) => connect(config.string('db.url')), inject: [Config] },
 *   { provide: TENANT, scope: 'request', useFactory: (request: Request) => request.headers['x-tenant'], inject: [Request] },
 * );
 * ```
 */
export type Provider<T = unknown> = ValueProvider<T> | ClassProvider<T> | FactoryProvider<T>;

export interface ValueProvider<T = unknown> {
  provide: Token<T> | InjectionToken<T>;
  useValue: T;
}

export interface ClassProvider<T = unknown> {
  provide: Token<T>;
  useClass: Class<T>;
  /** `'request'`: one instance per request (see `@Injectable({ scope })`); by default the class's own scope. */
  scope?: Scope;
}

export interface FactoryProvider<T = unknown> {
  provide: Token<T>;
  useFactory: (...dependencies: any[]) => T | Promise<T>;
  /** What the factory receives, in order (`Request` gives a request-scoped factory the request). */
  inject?: Token[];
  /** `'request'`: the factory runs once per request that needs its value; `'singleton'` (once, at startup) by default. */
  scope?: Scope;
}

/** Whether `value` is a provider object (a plain object with `provide`) rather than a service instance. */
export function isProvider(value: unknown): value is Provider {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, 'provide')) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
