import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import { Request } from '../request';
import type { ConstructorParameter } from './parameters';
import type { Provider } from './provider';
import type { RequestValue } from './request-values';
import type { Scope } from './scope';
import { tokenName, type Token } from './token';
import { uninjectable } from './uninjectable';

/** One thing the container can give: a class it builds, a value, or a factory's result. */
export interface Entry {
  token: Token;
  /** How errors and logs name what builds it: `TaskService`, `factory of DB_POOL`. */
  label: string;
  cls?: Class;
  value?: unknown;
  hasValue: boolean;
  factory?: (...args: unknown[]) => unknown;
  inject?: Token[];
  /** As provided (`scope: 'request'`); else the class's `@Injectable({ scope })`, or the overridden provider's. */
  scope?: Scope;
  /** Stands for the request itself. */
  request?: true;
  /** A value a constructor reads from the request. */
  read?: RequestValue;
  /** Given by `override`: without a scope of its own, it keeps the overridden provider's. */
  override?: true;
}

// What a constructor parameter typed `Request` (or a factory injecting `Request`) receives: the request being served.
export const REQUEST: Entry = { token: Request, label: 'Request', request: true, hasValue: false };

/** The entry of a provider object, checked: one of useValue, useClass and useFactory, a valid scope. */
export function entryOf(provider: Provider): Entry {
  const { provide } = provider;
  const ways = (['useValue', 'useClass', 'useFactory'] as const).filter((way) => Object.hasOwn(provider, way));
  const name = tokenName(provide);
  if (provide === undefined || provide === null || !['function', 'string', 'symbol', 'object'].includes(typeof provide)) {
    throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', String(provide), 'provide is a class, an InjectionToken, a string or a symbol');
  }
  if (ways.length !== 1) {
    throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, `give exactly one of useValue, useClass and useFactory (got ${ways.join(', ') || 'none'})`);
  }
  const scope = (provider as { scope?: unknown }).scope;
  if (scope !== undefined && scope !== 'singleton' && scope !== 'request') {
    throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, `scope is 'singleton' or 'request' (got ${JSON.stringify(scope)})`);
  }
  const scoped = scope === undefined ? {} : { scope: scope as Scope };
  if ('useValue' in provider) return { token: provide, label: name, value: provider.useValue, hasValue: true, ...scoped };
  if ('useClass' in provider) {
    if (typeof provider.useClass !== 'function') throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, 'useClass is a class');
    return { token: provide, label: provider.useClass.name, cls: provider.useClass, hasValue: false, ...scoped };
  }
  if (typeof provider.useFactory !== 'function') throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, 'useFactory is a function');
  return { token: provide, label: `factory of ${name}`, factory: provider.useFactory as Entry['factory'], inject: provider.inject ?? [], hasValue: false, ...scoped };
}

// How a request-scoped entry is made from its arguments: its class built, or its factory called.
export function maker(entry: Entry): (args: unknown[]) => unknown {
  const { factory, cls } = entry;
  if (factory) return (args) => factory(...args);
  return (args) => new cls!(...args);
}

/** `TRELLIS_ERR_SCOPE_WIDENING`: `consumer`, a singleton, takes `dependency`, request-scoped; `path` from the root. */
export function widening(consumer: string, dependency: string, path: string[]): TrellisError {
  return new TrellisError('TRELLIS_ERR_SCOPE_WIDENING', consumer, dependency, path.join(' -> '), dependency, consumer);
}

/** The error of a parameter nothing provides: an unknown token, an uninjectable type, an unknown class. */
export function unresolved(consumer: string, { position, name, token, explicit }: ConstructorParameter): TrellisError {
  if (explicit) return new TrellisError('TRELLIS_ERR_UNKNOWN_TOKEN', consumer, tokenName(token), position, name, tokenName(token));
  const reason = typeof token === 'function' ? uninjectable(token) : 'has no recorded type';
  if (reason) return new TrellisError('TRELLIS_ERR_UNINJECTABLE_PARAMETER', consumer, position, name, reason);
  const dependency = tokenName(token);
  return new TrellisError('TRELLIS_ERR_UNKNOWN_DEPENDENCY', consumer, dependency, position, name, dependency);
}
