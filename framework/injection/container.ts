import { TrellisError } from '../framework-error';
import { metadataChain } from '../metadata';
import { startupFailure } from '../lifecycle/hooks';
import type { Class } from '../core/types';
import { Request } from '../request';
import type { DependencyPlan, PlanStep } from './dependency-plan';
import { entryOf, maker, REQUEST, unresolved, widening, type Entry } from './entry';
import { constructorParameters, type ConstructorParameter } from './parameters';
import { isProvider, type Provider } from './provider';
import { requestValueLabel, requestValuesOf, type RequestValue } from './request-values';
import { declaredScope, type Scope } from './scope';
import { tokenName, type Token } from './token';
import { uninjectable } from './uninjectable';

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
  /** `override(token, value)`'s, consulted before `#entries`. */
  readonly #overrides = new Map<Token, Entry>();
  /** The routes' `@Depends()` parameters: checked with the consumers, made per request. */
  readonly #roots: Array<{ label: string; parameter: ConstructorParameter }> = [];
  /** The request values of each class's constructor, as entries, by position. */
  readonly #reads = new Map<Function, Map<number, Entry>>();
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
   * Gives `token` another value (or a provider object) from now on, whoever provided it and whenever: the
   * replacement keeps the provider's scope unless it names its own.
   */
  override(token: Token, replacement: unknown): void {
    if (token === undefined || token === null) throw new TrellisError('TRELLIS_ERR_OVERRIDE_INVALID', String(token), 'give the class or token the provider was registered under');
    const entry: Entry = isProvider(replacement)
      ? { ...entryOf({ ...replacement, provide: token } as Provider), override: true }
      : { token, label: tokenName(token), value: replacement, hasValue: true, override: true };
    this.#overrides.set(token, entry);
  }

  /** Records a route's `@Depends()` parameter (`label` names the handler): checked with the consumers. */
  addRoot(label: string, parameter: ConstructorParameter): void {
    this.#roots.push({ label, parameter });
  }

  #get(token: Token): Entry | undefined {
    return this.#overrides.get(token) ?? this.#entries.get(token);
  }

  /** Every provider as it stands, overrides in place of what they replace. */
  #effective(): Entry[] {
    const entries = [...this.#entries.values()].map((entry) => this.#overrides.get(entry.token) ?? entry);
    for (const entry of this.#overrides.values()) if (!this.#entries.has(entry.token)) entries.push(entry);
    return entries;
  }

  /** How long what `node` gives lives; a class built as a consumer (a router, a middleware) is a singleton. */
  scopeOf(node: Entry | Class): Scope {
    if (typeof node === 'function') return 'singleton';
    if (node.request || node.read) return 'request';
    if (node.scope) return node.scope;
    if (node.override) {
      // What it replaces: the provider, or the request-scoped class made without app.provide.
      const replaced = this.#entries.get(node.token);
      if (replaced) return this.scopeOf(replaced);
      if (typeof node.token === 'function' && declaredScope(node.token)) return declaredScope(node.token)!;
    }
    return (node.cls && declaredScope(node.cls)) || 'singleton';
  }

  /**
   * Every wiring mistake in `consumers` and what they need (and in provided classes with lifecycle hooks):
   * parameters nothing provides, interfaces and primitives without `@Inject`, missing types, cycles, a singleton
   * taking a request-scoped provider (`TRELLIS_ERR_SCOPE_WIDENING`). With `whole` (the default), the routes'
   * `@Depends()` parameters too, and every provided singleton's scope; `whole: false` checks one router as it is
   * included. Nothing is built.
   */
  problems(consumers: readonly Class[], { whole = true }: { whole?: boolean } = {}): TrellisError[] {
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
      const singleton = this.scopeOf(node) === 'singleton';
      for (const { entry } of needs ?? []) {
        if (singleton && this.scopeOf(entry) === 'request') problems.push(widening(label, entry.label, [...path, label, entry.label]));
        else visit(entry, [...path, label]);
      }
    };
    for (const consumer of consumers) visit(consumer, []);
    for (const entry of this.#hooked()) visit(entry, []);
    // Checking one router as it is included leaves out what may still be provided after it.
    if (!whole) return problems;
    for (const { label, parameter } of this.#roots) {
      const entry = this.#lookup(parameter);
      if (entry) visit(entry, [label]);
      else problems.push(unresolved(label, parameter));
    }
    // A provided singleton nothing uses yet still may not take a request-scoped provider.
    for (const entry of this.#effective()) {
      if (done.has(entry) || this.scopeOf(entry) !== 'singleton') continue;
      for (const need of this.#needs(entry, []) ?? []) {
        if (this.scopeOf(need.entry) === 'request') problems.push(widening(entry.label, need.entry.label, [entry.label, need.entry.label]));
      }
    }
    return problems;
  }

  /** Throws the first of {@link problems}. */
  check(consumers: readonly Class[], options?: { whole?: boolean }): void {
    const [first] = this.problems(consumers, options);
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

  /**
   * How to give a route's `@Depends()` parameters per request: the request-scoped providers they need, in the
   * order to make them, and the singletons those take, built now (awaiting async factories). Run {@link check} first.
   */
  async plan(parameters: readonly ConstructorParameter[]): Promise<DependencyPlan> {
    const steps: PlanStep[] = [];
    const made = new Map<Entry, number>();
    const add = async (entry: Entry): Promise<number> => {
      const known = made.get(entry);
      if (known !== undefined) return known;
      let step: PlanStep;
      if (entry.request) step = { kind: 'request' };
      else if (entry.read) step = { kind: 'read', read: entry.read };
      else if (this.scopeOf(entry) === 'singleton') step = { kind: 'value', value: await this.#resolve(entry) };
      else if (entry.hasValue) step = { kind: 'given', value: entry.value };
      else {
        const args: number[] = [];
        for (const need of this.#needs(entry, [])!) args.push(await add(need.entry));
        step = { kind: 'make', label: entry.label, make: maker(entry), args };
      }
      made.set(entry, steps.push(step) - 1);
      return steps.length - 1;
    };
    const roots: number[] = [];
    for (const parameter of parameters) roots.push(await add(this.#lookup(parameter)!));
    return { steps, roots };
  }

  /** The request values (`@Header`, `@Query`...) the providers behind `parameters` read, for the route's documentation. */
  requestValues(parameters: readonly ConstructorParameter[]): RequestValue[] {
    const found: RequestValue[] = [];
    const seen = new Set<Entry>();
    const walk = (entry: Entry | undefined) => {
      if (!entry || seen.has(entry) || this.scopeOf(entry) !== 'request') return;
      seen.add(entry);
      if (entry.read) found.push(entry.read);
      for (const need of this.#needs(entry, []) ?? []) walk(need.entry);
    };
    for (const parameter of parameters) walk(this.#lookup(parameter));
    return found;
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
    if (entry?.hasValue || entry?.request || entry?.read) return [];
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
    return this.#resolveAll(cls.name, parameters, problems, this.#readsOf(cls, problems));
  }

  // The entries of the values `cls`'s constructor reads from the request, made once per class.
  #readsOf(cls: Class, problems: TrellisError[]): ReadonlyMap<number, Entry> | undefined {
    let reads = this.#reads.get(cls);
    if (!reads) {
      reads = new Map();
      for (const [index, read] of requestValuesOf(cls) ?? []) {
        const label = requestValueLabel(read);
        reads.set(index, { token: Symbol(label), label, read, hasValue: false });
      }
      this.#reads.set(cls, reads);
    }
    for (const [index, entry] of reads) {
      const { param } = entry.read!;
      if (param.kind === 'body' || param.kind === 'file' || param.kind === 'dependency' || (param.kind !== 'request' && param.name === undefined)) {
        problems.push(new TrellisError('TRELLIS_ERR_DEPENDENCY_PARAM', cls.name, index + 1, entry.label));
      }
    }
    return reads;
  }

  #resolveAll(consumer: string, parameters: ConstructorParameter[], problems: TrellisError[], reads?: ReadonlyMap<number, Entry>): Needs | undefined {
    const needs: Needs = [];
    for (const parameter of parameters) {
      const entry = reads?.get(parameter.position - 1) ?? this.#lookup(parameter);
      if (entry) needs.push({ parameter, entry });
      else problems.push(unresolved(consumer, parameter));
    }
    return needs.length === parameters.length ? needs : undefined;
  }

  #lookup({ token, explicit }: ConstructorParameter): Entry | undefined {
    if (token === undefined) return undefined;
    const exact = this.#get(token);
    if (exact) return exact;
    if (token === Request) return REQUEST;
    // A request-scoped class needs no app.provide: it is made per request anyway.
    if (typeof token === 'function' && declaredScope(token) === 'request') return this.#add({ token, label: token.name, cls: token as Class, hasValue: false });
    if (explicit || typeof token !== 'function' || uninjectable(token)) return undefined;
    // A parameter declared as a base class takes a provided subclass (or an instance of one).
    for (const entry of this.#effective()) {
      if (typeof entry.token === 'function' && entry.token.prototype instanceof token) return entry;
    }
    const auto = this.autoProvide?.(token as Class);
    return auto ? this.#add(entryOf(auto)) : undefined;
  }

  #hooked(): Entry[] {
    return this.#effective().filter((entry) => this.scopeOf(entry) === 'singleton' && hasHooks(entry.cls?.prototype ?? entry.value));
  }
}

/** Whether an instance (or a prototype) defines a lifecycle hook. */
export function hasHooks(target: unknown): boolean {
  return target !== null && typeof target === 'object' && HOOKS.some((hook) => typeof (target as Record<string, unknown>)[hook] === 'function');
}

/**
 * Whether the container would pass a provided `service` to `consumer`: to a constructor parameter declared as the
 * service's class or as a base class of it (or an `@Inject` of that class), or to a handler's `@Depends()` parameter.
 *
 * @example
 * ```ts
 * injects(TaskRouter, TaskService); // true: constructor(private readonly tasks: TaskService)
 * injects(TaskRouter, UnitOfWork); // true: create(@Depends() uow: UnitOfWork)
 * injects(TaskRouter, Mailer); // false
 * ```
 */
export function injects(consumer: Class, service: Class): boolean {
  const takes = (token: unknown) => typeof token === 'function' && !uninjectable(token) && (service === token || service.prototype instanceof token);
  if ((constructorParameters(consumer) ?? []).some(({ token }) => takes(token))) return true;
  for (const metadata of metadataChain(consumer)) {
    for (const [handler, params] of metadata.params) {
      if (handler === 'constructor') continue;
      const types: unknown[] = Reflect.getMetadata('design:paramtypes', consumer.prototype, handler) ?? [];
      if (params.some((param) => param.kind === 'dependency' && takes(param.token ?? types[param.index]))) return true;
    }
  }
  return false;
}
