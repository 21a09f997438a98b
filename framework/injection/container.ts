import { TrellisError } from '../framework-error';
import { startupFailure } from '../lifecycle/hooks';
import type { Class } from '../core/types';
import { constructorParameters, type ConstructorParameter } from './parameters';
import { isProvider, type Provider } from './provider';
import { tokenName, type Token } from './token';
import { uninjectable } from './uninjectable';

/** One thing the container can give: a class it builds, a value, or a factory's result. */
interface Entry {
  token: Token;
  /** How errors and logs name what builds it: `TaskService`, `factory of DB_POOL`. */
  label: string;
  cls?: Class;
  value?: unknown;
  hasValue: boolean;
  factory?: (...args: unknown[]) => unknown;
  inject?: Token[];
}

/** What a consumer or a factory needs, resolved: an entry per parameter. */
type Needs = Array<{ parameter: ConstructorParameter; entry: Entry }>;

/** The lifecycle methods a service, router or middleware may define. */
export const HOOKS = ['onStartup', 'onShutdown', 'healthCheck'] as const;

/**
 * One app's services. Everything is checked before anything is built ({@link Container.problems}): each
 * constructor parameter must name something provided, by its class (or a base class of it) or by an
 * `@Inject` token. {@link Container.build} then builds what the consumers (routers, middleware) need, plus
 * every provided class with lifecycle hooks, each once, dependencies first, awaiting async factories.
 */
export class Container {
  readonly #entries = new Map<Token, Entry>();
  readonly #built = new Map<Entry | Class, unknown>();
  /** Everything built or handed out, dependencies before their consumers: the order startup hooks run in. */
  readonly #order: unknown[] = [];
  /** Makes an entry for a class nobody provided, when it can (a `@Settings` class); set by the app. */
  autoProvide: ((cls: Class) => Provider | undefined) | undefined;

  provide(service: Class | object | Provider): void {
    if (typeof service === 'function') this.#add({ token: service as Class, label: service.name, cls: service as Class, hasValue: false });
    else if (isProvider(service)) this.#add(entryOf(service));
    else this.#add({ token: service.constructor as Class, label: service.constructor.name, value: service, hasValue: true });
  }

  #add(entry: Entry): Entry {
    this.#entries.set(entry.token, entry);
    return entry;
  }

  /**
   * Every wiring mistake in `consumers` and what they need (and in provided classes with lifecycle hooks):
   * parameters nothing provides, interfaces and primitives without `@Inject`, missing types, cycles. Nothing
   * is built.
   */
  problems(consumers: readonly Class[]): TrellisError[] {
    const problems: TrellisError[] = [];
    const done = new Set<Entry | Class>();
    const visit = (node: Entry | Class, path: string[]) => {
      const label = typeof node === 'function' ? node.name : node.label;
      if (path.includes(label)) {
        problems.push(new TrellisError('TRELLIS_ERR_CIRCULAR_DEPENDENCY', [...path.slice(path.indexOf(label)), label].join(' -> ')));
        return;
      }
      if (done.has(node)) return;
      done.add(node);
      const needs = this.#needs(node, problems);
      for (const { entry } of needs ?? []) visit(entry, [...path, label]);
    };
    for (const consumer of consumers) visit(consumer, []);
    for (const entry of this.#hooked()) visit(entry, []);
    return problems;
  }

  /** Throws the first of {@link problems}. */
  check(consumers: readonly Class[]): void {
    const [first] = this.problems(consumers);
    if (first) throw first;
  }

  /**
   * Builds each consumer class (once) and what it needs, and every provided class with lifecycle hooks;
   * resolves to the consumers' instances. Run {@link check} first.
   */
  async build(consumers: readonly Class[], options: { hooked?: boolean } = {}): Promise<Map<Class, unknown>> {
    const instances = new Map<Class, unknown>();
    if (options.hooked !== false) for (const entry of this.#hooked()) await this.#resolve(entry);
    for (const consumer of consumers) instances.set(consumer, await this.#resolve(consumer));
    return instances;
  }

  /** What was built or handed out, dependencies before their consumers. */
  get built(): readonly unknown[] {
    return this.#order;
  }

  /** Whether building `consumers` would build or hand out something with lifecycle hooks, or run a factory. */
  wouldRunCode(consumers: readonly Class[]): boolean {
    const seen = new Set<Entry | Class>();
    const risky = (node: Entry | Class): boolean => {
      if (seen.has(node)) return false;
      seen.add(node);
      const target = typeof node === 'function' ? node.prototype : (node.cls?.prototype ?? node.value);
      if ((typeof node !== 'function' && node.factory) || hasHooks(target)) return true;
      return (this.#needs(node, []) ?? []).some((need) => risky(need.entry));
    };
    return consumers.some(risky);
  }

  async #resolve(node: Entry | Class): Promise<unknown> {
    if (this.#built.has(node)) return this.#built.get(node);
    const entry = typeof node === 'function' ? undefined : node;
    let instance: unknown;
    if (entry?.hasValue) instance = entry.value;
    else {
      const args: unknown[] = [];
      for (const { entry: needed } of this.#needs(node, [])!) args.push(await this.#resolve(needed));
      const Cls = (entry?.cls ?? node) as Class;
      try {
        instance = entry?.factory ? await entry.factory(...args) : new Cls(...args);
      } catch (error) {
        // A setting of the wrong kind (ConfigValueError) stays itself: tools point at its line in config.yaml.
        throw error instanceof TrellisError ? error : startupFailure(entry?.factory ? entry.label : `new ${Cls.name}()`, error);
      }
    }
    this.#built.set(node, instance);
    this.#order.push(instance);
    return instance;
  }

  /** What `node` needs, parameter by parameter; undefined (and a problem) when that cannot be told. */
  #needs(node: Entry | Class, problems: TrellisError[]): Needs | undefined {
    const entry = typeof node === 'function' ? undefined : node;
    if (entry?.hasValue) return [];
    if (entry?.factory) {
      const parameters = (entry.inject ?? []).map((token, index) => ({ position: index + 1, name: tokenName(token), token, explicit: true }));
      return this.#resolveAll(entry.label, parameters, problems);
    }
    const cls = (entry?.cls ?? node) as Class;
    const parameters = constructorParameters(cls);
    if (!parameters) {
      problems.push(new TrellisError('TRELLIS_ERR_NO_PARAMTYPES', cls.name, cls.length));
      return undefined;
    }
    return this.#resolveAll(cls.name, parameters, problems);
  }

  #resolveAll(consumer: string, parameters: ConstructorParameter[], problems: TrellisError[]): Needs | undefined {
    const needs: Needs = [];
    for (const parameter of parameters) {
      const entry = this.#lookup(parameter);
      if (entry) needs.push({ parameter, entry });
      else problems.push(unresolved(consumer, parameter));
    }
    return needs.length === parameters.length ? needs : undefined;
  }

  #lookup({ token, explicit }: ConstructorParameter): Entry | undefined {
    if (token === undefined) return undefined;
    const exact = this.#entries.get(token);
    if (exact) return exact;
    if (explicit || typeof token !== 'function' || uninjectable(token)) return undefined;
    // A parameter declared as a base class takes a provided subclass (or an instance of one).
    for (const entry of this.#entries.values()) {
      if (typeof entry.token === 'function' && entry.token.prototype instanceof token) return entry;
    }
    const auto = this.autoProvide?.(token as Class);
    return auto ? this.#add(entryOf(auto)) : undefined;
  }

  #hooked(): Entry[] {
    return [...this.#entries.values()].filter((entry) => hasHooks(entry.cls?.prototype ?? entry.value));
  }
}

/** Whether an instance (or a prototype) defines a lifecycle hook. */
export function hasHooks(target: unknown): boolean {
  return target !== null && typeof target === 'object' && HOOKS.some((hook) => typeof (target as Record<string, unknown>)[hook] === 'function');
}

function entryOf(provider: Provider): Entry {
  const { provide } = provider;
  const ways = (['useValue', 'useClass', 'useFactory'] as const).filter((way) => Object.hasOwn(provider, way));
  const name = tokenName(provide);
  if (provide === undefined || provide === null || !['function', 'string', 'symbol', 'object'].includes(typeof provide)) {
    throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', String(provide), 'provide is a class, an InjectionToken, a string or a symbol');
  }
  if (ways.length !== 1) {
    throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, `give exactly one of useValue, useClass and useFactory (got ${ways.join(', ') || 'none'})`);
  }
  if ('useValue' in provider) return { token: provide, label: name, value: provider.useValue, hasValue: true };
  if ('useClass' in provider) {
    if (typeof provider.useClass !== 'function') throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, 'useClass is a class');
    return { token: provide, label: provider.useClass.name, cls: provider.useClass, hasValue: false };
  }
  if (typeof provider.useFactory !== 'function') throw new TrellisError('TRELLIS_ERR_INVALID_PROVIDER', name, 'useFactory is a function');
  return { token: provide, label: `factory of ${name}`, factory: provider.useFactory as Entry['factory'], inject: provider.inject ?? [], hasValue: false };
}

function unresolved(consumer: string, { position, name, token, explicit }: ConstructorParameter): TrellisError {
  if (explicit) return new TrellisError('TRELLIS_ERR_UNKNOWN_TOKEN', consumer, tokenName(token), position, name, tokenName(token));
  const reason = typeof token === 'function' ? uninjectable(token) : 'has no recorded type';
  if (reason) return new TrellisError('TRELLIS_ERR_UNINJECTABLE_PARAMETER', consumer, position, name, reason);
  const dependency = tokenName(token);
  return new TrellisError('TRELLIS_ERR_UNKNOWN_DEPENDENCY', consumer, dependency, position, name, dependency);
}

/**
 * Whether the container would pass a provided `service` to some constructor parameter of `consumer`: a
 * parameter declared as the service's class or as a base class of it, or an `@Inject` of that class.
 *
 * @example
 * ```ts
 * injects(TaskRouter, TaskService); // true: constructor(private readonly tasks: TaskService)
 * injects(TaskRouter, Mailer); // false
 * ```
 */
export function injects(consumer: Class, service: Class): boolean {
  return (constructorParameters(consumer) ?? []).some(
    ({ token }) => typeof token === 'function' && !uninjectable(token) && (service === token || service.prototype instanceof token),
  );
}
