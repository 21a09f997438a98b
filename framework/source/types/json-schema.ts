import type * as TS from 'typescript';
import type { TypeSchema } from './table';

type Generator = typeof import('ts-json-schema-generator');
type Definition = { [keyword: string]: unknown };
/** One definition the library found under a type: named ones become components. */
type Entry = { definition: Definition; named: boolean; id: string };

/** The component names OpenAPI allows. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const DEFINITIONS = '#/definitions/';
const COMPONENTS = '#/components/schemas/';

/**
 * Turns TypeScript type nodes into OpenAPI 3.1 schemas with ts-json-schema-generator: named types (interfaces,
 * classes, aliases, enums, generic instances such as `Page<Task>` named `Page_Task`) go to `schemas` and are
 * referenced by `$ref: '#/components/schemas/Name'`; anonymous ones are inlined. One per program: the library's
 * parser caches what it parsed. A type it cannot convert is `{}`.
 */
export class SchemaConverter {
  /** The named schemas of every type converted so far. */
  readonly schemas: Record<string, TypeSchema> = {};
  readonly #parser: ReturnType<Generator['createParser']>;
  readonly #formatter: ReturnType<Generator['createFormatter']>;
  readonly #generator: Generator;
  /** Component name given to each of the library's definition ids (two types of one name get `Name_2`). */
  readonly #names = new Map<string, string>();
  /** The library's definition of each component, to tell a second parse of one type from another type of its name. */
  readonly #raw = new Map<string, string>();

  constructor(generator: Generator, program: TS.Program) {
    const config = {
      ...generator.DEFAULT_CONFIG,
      expose: 'all' as const,
      topRef: true,
      jsDoc: 'extended' as const,
      skipTypeCheck: true,
      encodeRefs: false,
      additionalProperties: true,
      sortProps: false,
      functions: 'hide' as const,
    };
    this.#generator = generator;
    this.#parser = generator.createParser(program, config);
    this.#formatter = generator.createFormatter(config);
  }

  /** The schema of a type node (a node of the program, or one the checker made with `typeToTypeNode`). */
  convert(node: TS.Node): TypeSchema {
    try {
      const type = this.#parser.createType(node, new this.#generator.Context());
      const definitions = new Map<string, Entry>();
      for (const child of this.#formatter.getChildren(type)) {
        if (!(child instanceof this.#generator.DefinitionType) || definitions.has(child.getName())) continue;
        const named = child.getName() !== child.getId();
        definitions.set(child.getName(), { definition: this.#formatter.getDefinition(child.getType()) as Definition, named, id: child.getId() });
      }
      const root = this.#formatter.getDefinition(type) as Definition;
      const inline = new Map<string, Definition>();
      for (const [name, entry] of definitions) if (!entry.named || !componentName(name) || isUtility(name)) inline.set(name, entry.definition);
      const rewrite = (value: unknown, depth: number): unknown => this.#rewrite(value, inline, definitions, depth);
      for (const [name, entry] of definitions) {
        if (inline.has(name)) continue;
        const component = this.#componentFor(name, entry);
        if (!Object.hasOwn(this.schemas, component)) this.schemas[component] = rewrite(entry.definition, 0) as TypeSchema;
      }
      const schema = rewrite(root, 0) as TypeSchema;
      // A function, symbol or `undefined` alone has no JSON form: unknown rather than "nothing matches".
      return isUndefined(schema) ? {} : schema;
    } catch {
      return {};
    }
  }

  #componentFor(name: string, entry: Entry): string {
    const known = this.#names.get(entry.id);
    if (known) return known;
    const base = componentName(name)!;
    const raw = JSON.stringify(entry.definition);
    let component = base;
    for (let n = 2; this.#raw.has(component) && this.#raw.get(component) !== raw; n++) component = `${base}_${n}`;
    this.#names.set(entry.id, component);
    this.#raw.set(component, raw);
    return component;
  }

  // draft-07 as the library writes it -> OpenAPI 3.1: refs into components, anonymous definitions inlined,
  // array-form tuples as `prefixItems`.
  #rewrite(value: unknown, inline: Map<string, Definition>, definitions: Map<string, Entry>, depth: number): unknown {
    if (Array.isArray(value)) return value.map((item) => this.#rewrite(item, inline, definitions, depth));
    if (typeof value !== 'object' || value === null) return value;
    const schema = value as Definition;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(DEFINITIONS)) {
      const name = schema.$ref.slice(DEFINITIONS.length);
      const { $ref: _, ...rest } = schema;
      const inlined = inline.get(name);
      if (inlined) return depth > 20 ? {} : { ...(this.#rewrite(inlined, inline, definitions, depth + 1) as Definition), ...rest };
      const entry = definitions.get(name);
      return { $ref: `${COMPONENTS}${entry ? this.#componentFor(name, entry) : componentName(name) ?? name}`, ...rest };
    }
    const out: Definition = {};
    for (const [key, child] of Object.entries(schema)) {
      if (key === '$schema' || key === 'definitions') continue;
      out[key] = this.#rewrite(child, inline, definitions, depth);
    }
    // `T | undefined`: undefined is no JSON value (the library writes it as `{ not: {} }`).
    if (Array.isArray(out.anyOf)) {
      const defined = out.anyOf.filter((member) => !isUndefined(member));
      if (defined.length === 1 && Object.keys(out).length === 1) return defined[0];
      out.anyOf = defined;
    }
    if (Array.isArray(out.items)) {
      out.prefixItems = out.items;
      if ('additionalItems' in out) out.items = out.additionalItems;
      else delete out.items;
      delete out.additionalItems;
    }
    return out;
  }
}

// TypeScript's own utility types are spelled out where used (`Record<string, Task>` is an object of Tasks), not components.
const UTILITIES = new Set(['Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit', 'Exclude', 'Extract', 'NonNullable', 'Awaited', 'ReturnType', 'Array', 'ReadonlyArray', 'Promise']);

function isUtility(name: string): boolean {
  return UTILITIES.has(name.split('<')[0]);
}

function isUndefined(schema: unknown): boolean {
  const not = (schema as Definition | null)?.not;
  return typeof not === 'object' && not !== null && Object.keys(not).length === 0 && Object.keys(schema as Definition).length === 1;
}

/** `Page<Task>` -> `Page_Task`, `Page<Task[]>` -> `Page_Task_Array`; undefined when nothing usable is left. */
export function componentName(name: string): string | undefined {
  const cleaned = name
    .replace(/\[\]/g, '_Array')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return cleaned && COMPONENT_NAME.test(cleaned) ? cleaned : undefined;
}
