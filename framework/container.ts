import 'reflect-metadata';
import { TrellisError } from './framework-error';
import type { Class } from './metadata';

/**
 * One app's services: classes are built on first use, with their own constructor parameters resolved by
 * type, and kept (one instance per app). A parameter matches a provided class or instance of that type or
 * of a subclass of it.
 */
export class Container {
  readonly #instances = new Map<Class, unknown>();
  readonly #classes = new Set<Class>();

  provide(service: Class | object): void {
    if (typeof service === 'function') this.#classes.add(service as Class);
    else this.#instances.set(service.constructor as Class, service);
  }

  /** Builds `cls` (not cached), injecting its constructor parameters. */
  construct<T>(cls: Class<T>, resolving: Class[] = []): T {
    const types = recordedTypes(cls);
    if (!types) {
      if (cls.length > 0) throw new TrellisError('TRELLIS_ERR_NO_PARAMTYPES', cls.name, cls.length);
      return new cls();
    }
    const args = types.map((type, index) => {
      const provided = this.#lookup(type as Class);
      if (!provided) {
        const name = (type as Function | undefined)?.name ?? String(type);
        throw new TrellisError('TRELLIS_ERR_UNKNOWN_DEPENDENCY', cls.name, name, index + 1, name);
      }
      return this.#instance(provided, [...resolving, cls]);
    });
    return new cls(...args);
  }

  #lookup(type: Class): Class | undefined {
    if (typeof type !== 'function') return undefined;
    if (this.#instances.has(type) || this.#classes.has(type)) return type;
    for (const cls of [...this.#instances.keys(), ...this.#classes]) if (fills(cls, type)) return cls;
    return undefined;
  }

  #instance(cls: Class, resolving: Class[]): unknown {
    if (this.#instances.has(cls)) return this.#instances.get(cls);
    if (resolving.includes(cls)) {
      throw new TrellisError('TRELLIS_ERR_CIRCULAR_DEPENDENCY', [...resolving, cls].map((c) => c.name).join(' -> '));
    }
    const instance = this.construct(cls, resolving);
    this.#instances.set(cls, instance);
    return instance;
  }
}

/**
 * Whether the container would pass a provided `service` to some constructor parameter of `consumer`: a
 * parameter declared as the service's class or as a base class of it.
 *
 * @example
 * ```ts
 * injects(TaskRouter, TaskService); // true: constructor(private readonly tasks: TaskService)
 * injects(TaskRouter, Mailer); // false
 * ```
 */
export function injects(consumer: Class, service: Class): boolean {
  return (recordedTypes(consumer) ?? []).some((type) => fills(service, type));
}

/** A provided class fills a parameter declared as itself or as one of its base classes. */
function fills(service: Class, type: unknown): boolean {
  return typeof type === 'function' && (service === type || service.prototype instanceof type);
}

/** The constructor parameter types TypeScript recorded (`@Injectable()`, or any class decorator); undefined when none. */
function recordedTypes(cls: Class): unknown[] | undefined {
  return Reflect.getMetadata('design:paramtypes', cls);
}
