import 'reflect-metadata';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { TrellisError } from '../framework-error';
import type { Class, ScalarType } from '../core/types';
import type { TypeSchema } from '../source/types/table';
import { mergeSourceSchema, refNames } from './source-schemas';
import type { SchemaObject } from './types';

// Where class-transformer keeps `@Type(() => Item)`; without it nested arrays come out as `$ref: Array`.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };

const PREFIX = '#/components/schemas/';
const SCALARS = new Set<unknown>(['string', 'number', 'integer', 'boolean']);

/** A declared type: a scalar name, a constructor (built-in or DTO class) or `[Item]` for arrays. */
export type DeclaredType = ScalarType | Class | [Class | ScalarType] | Function | undefined;

/**
 * The schemas of the DTO classes an app's routes use: each class once, under its name, with the classes
 * it nests; nothing else from class-validator's (process-wide) storage. Given the named schemas of the
 * handlers' TypeScript types (a {@link TypeTable}'s), it adds those the document refers to, with theirs.
 */
export class SchemaRegistry {
  readonly #classes = new Map<string, Function>();
  readonly #schemas: Record<string, SchemaObject> = {};
  readonly #source: Record<string, TypeSchema>;
  /** Names of source schemas the document refers to (directly or through another source schema). */
  readonly #sourceUsed = new Set<string>();
  readonly #shapeless = new Set<string>();

  constructor(sourceSchemas: Readonly<Record<string, TypeSchema>> = {}) {
    this.#source = { ...sourceSchemas };
  }

  /**
   * `{ $ref }` to a DTO class a handler is declared to return, whose TypeScript declaration the source table
   * gives inline (a class it did not name): the class's component, merged with that declaration.
   */
  declaredClass(cls: Class, declared: TypeSchema): SchemaObject {
    const ref = this.ref(cls);
    if (!Object.hasOwn(this.#source, cls.name)) this.#source[cls.name] = declared;
    return ref;
  }

  /**
   * A schema read from the handlers' sources, as is: its `$ref`s name schemas of the table, which the
   * document then includes.
   */
  fromSource(schema: TypeSchema): SchemaObject {
    this.#useSource(schema);
    return schema;
  }

  /** The schema of a declared type: inline for scalars and built-ins, a `$ref` for a DTO class. */
  schemaOf(type: DeclaredType): SchemaObject {
    if (Array.isArray(type)) return { type: 'array', items: this.schemaOf(type[0]) };
    if (SCALARS.has(type)) return { type };
    return builtinSchema(type) ?? this.ref(type as Class);
  }

  /** `{ $ref }` to the schema of `cls`, registering it (and what it nests) on first use. */
  ref(cls: Class): SchemaObject {
    this.#register(cls);
    return { $ref: PREFIX + cls.name };
  }

  /** Adds a fixed schema, such as the validation-error envelope. */
  define(name: string, schema: SchemaObject): SchemaObject {
    this.#claim(name, this.define);
    this.#schemas[name] ??= schema;
    return { $ref: PREFIX + name };
  }

  /**
   * The registered schemas, sorted by name; `undefined` when there are none.
   *
   * A source schema named like a registered DTO class (the same class, read twice: `@Body() task: TaskIn`
   * registers it from class-validator's rules, `(): TaskIn` names it in the source table) is one component,
   * never a TRELLIS_ERR_SCHEMA_NAME_CLASH: class-validator's schema wins for the properties it has rules for
   * (they carry the constraints the server enforces: `minLength`, `integer`...), and the TypeScript schema
   * adds the properties it declares without rules, which class-validator does not see (an output class
   * often has none: `{ type: 'object' }` alone says nothing). A different type that happens to share a DTO
   * class's name is described as that class: name types apart to avoid it. The framework's own schemas
   * (`HTTPError`, `HTTPValidationError`, `ValidationDetail`) win over source types of those names.
   */
  get schemas(): Record<string, SchemaObject> | undefined {
    const all: Record<string, SchemaObject> = { ...this.#schemas };
    for (const name of Object.keys(all)) {
      const source = this.#sourceOf(name);
      if (source && this.#classes.get(name) !== this.define) {
        all[name] = mergeSourceSchema(all[name], source);
        this.#useSource(source);
      }
    }
    for (const name of this.#sourceUsed) {
      if (!Object.hasOwn(all, name)) all[name] = this.#sourceOf(name)!;
    }
    const names = Object.keys(all).sort();
    return names.length ? Object.fromEntries(names.map((name) => [name, all[name]])) : undefined;
  }

  #sourceOf(name: string): TypeSchema | undefined {
    return Object.hasOwn(this.#source, name) ? this.#source[name] : undefined;
  }

  #useSource(schema: unknown): void {
    for (const name of refNames(schema, PREFIX)) {
      if (this.#sourceUsed.has(name)) continue;
      const source = this.#sourceOf(name);
      if (!source) continue;
      this.#sourceUsed.add(name);
      this.#useSource(source);
    }
  }

  #claim(name: string, owner: Function): boolean {
    const current = this.#classes.get(name);
    if (current === owner) return false;
    if (current) throw new TrellisError('TRELLIS_ERR_SCHEMA_NAME_CLASH', name);
    this.#classes.set(name, owner);
    return true;
  }

  /**
   * The registered classes none of whose properties is known at run time (no class-validator rule, no `@Expose()`),
   * documented as `{ type: 'object' }`: what response shaping refuses, since it could only send them whole.
   */
  get shapeless(): string[] {
    return [...this.#shapeless];
  }

  #register(cls: Class): void {
    if (!this.#claim(cls.name, cls)) return;
    const schema = targetConstructorToSchema(cls, {
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: PREFIX,
    }) as Record<string, unknown>;
    const nested = nestedClasses(cls);
    const resolved = ('type' in schema ? resolveRefs(schema, (name) => {
      const child = nested.get(name);
      if (!child) return { type: 'object' };
      return builtinSchema(child) ?? this.ref(child as Class);
    }) : { type: 'object' }) as Record<string, unknown>;
    const exposed = this.#exposed(cls, resolved.properties as Record<string, SchemaObject> | undefined);
    if (exposed) resolved.properties = exposed;
    // A class without class-validator rules or @Expose() still gets a named object schema.
    if (!resolved.properties || Object.keys(resolved.properties).length === 0) this.#shapeless.add(cls.name);
    this.#schemas[cls.name] = resolved;
  }

  // The properties of `cls` with class-transformer's `@Expose()` that class-validator does not know, added to
  // `properties`: typed by `@Type(() => Item)`, else their design type (an interface or an array without @Type is `{}`).
  #exposed(cls: Class, properties: Record<string, SchemaObject> | undefined): Record<string, SchemaObject> | undefined {
    const added = defaultMetadataStorage.getExposedMetadatas(cls).filter(
      ({ propertyName }) => typeof propertyName === 'string' && !(properties && Object.hasOwn(properties, propertyName)),
    );
    if (!added.length) return undefined;
    const all: Record<string, SchemaObject> = { ...properties };
    for (const { propertyName } of added) {
      const key = propertyName as string;
      const design: unknown = Reflect.getMetadata('design:type', cls.prototype, key);
      const item = defaultMetadataStorage.findTypeMetadata(cls, key)?.typeFunction();
      const schemaOf = (type: unknown) => builtinSchema(type) ?? this.ref(type as Class);
      Object.defineProperty(all, key, {
        value: item === undefined ? schemaOf(design) : design === Array ? { type: 'array', items: schemaOf(item) } : schemaOf(item),
        enumerable: true, writable: true, configurable: true,
      });
    }
    return all;
  }
}

/** The names of the framework's own schemas ({@link SchemaRegistry.define}): a DTO class cannot take them. */
export const OWN_SCHEMAS: readonly string[] = ['HTTPError', 'HTTPValidationError', 'ValidationDetail'];

/**
 * The DTO classes whose schemas `types` may register (each a declared type: `Class`, `[Class]`, a built-in...):
 * themselves, then every class their properties may nest (as {@link SchemaRegistry} follows them), each once.
 *
 * @example
 * ```ts
 * reachedClasses([TaskIn, [TaskOut]]); // Set { TaskIn, TaskOut, Owner } when TaskOut nests Owner
 * ```
 */
export function reachedClasses(types: readonly unknown[]): Set<Function> {
  const reached = new Set<Function>();
  const queue = types.map((type) => (Array.isArray(type) ? type[0] : type));
  while (queue.length) {
    const type = queue.pop();
    if (SCALARS.has(type) || builtinSchema(type) || reached.has(type as Function)) continue;
    reached.add(type as Function);
    queue.push(...nestedClasses(type as Class).values(), ...exposedTypes(type as Class));
  }
  return reached;
}

function exposedTypes(cls: Class): unknown[] {
  return defaultMetadataStorage.getExposedMetadatas(cls).flatMap(({ propertyName }) =>
    typeof propertyName === 'string'
      ? [Reflect.getMetadata('design:type', cls.prototype, propertyName), defaultMetadataStorage.findTypeMetadata(cls, propertyName)?.typeFunction()]
      : [],
  );
}

/** Constructors a class's validated properties refer to (via `@Type()` or their design type), by name. */
function nestedClasses(cls: Class): Map<string, Function> {
  const found = new Map<string, Function>();
  const properties = new Set(
    getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).map((m) => m.propertyName),
  );
  for (const property of properties) {
    const typeFunction = defaultMetadataStorage.findTypeMetadata(cls, property)?.typeFunction;
    const type: unknown = typeFunction ? typeFunction() : Reflect.getMetadata('design:type', cls.prototype, property);
    if (typeof type === 'function' && type.name) found.set(type.name, type);
  }
  return found;
}

function builtinSchema(type: unknown): SchemaObject | undefined {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === Date) return { type: 'string', format: 'date-time' };
  if (type === Array) return { type: 'array', items: {} };
  if (type === Object || type === undefined || type === Promise || typeof type !== 'function') return {};
  return undefined;
}

/** A copy of `schema` with every `$ref` replaced by what `resolve` gives for the referenced name. */
function resolveRefs(schema: unknown, resolve: (name: string) => SchemaObject): SchemaObject {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, resolve)) as never;
  if (schema === null || typeof schema !== 'object') return schema as never;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith(PREFIX)) return resolve(ref.slice(PREFIX.length));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, resolve)]));
}
