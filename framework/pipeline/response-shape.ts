import { TrellisError } from '../framework-error';
import type { Encode, ResponseShapes } from '../core/response-shapes';
import type { Class } from '../core/types';
import { Response } from '../response';
import type { RouteInfo } from '../routing/route-info';
import { methodTypes, type TypeTable } from '../source/types/table';
import { serializerOf, type Serialize } from './serializer-code';
import { serializerSchema } from './serializer-schema';

type Model = Class | [Class];
/** A declared schema and the named schemas its `$ref`s point into. */
interface Declared {
  schema: unknown;
  definitions: Readonly<Record<string, unknown>>;
}

/**
 * Compiles, once per route when the app starts, what shapes its JSON bodies (FastAPI's `response_model`): for its
 * success status the `response` option's class, else the JSON return schema read from its source (`sourceTypes`);
 * for other statuses the classes of its `responses` option, else the schemas of the tuples it returns
 * (`[{ error }, 404]`). `shapeResponse: false` leaves the route's bodies as `JSON.stringify` makes them. Routes
 * with the same shape share one fast-json-stringify function, kept as standalone code in the project's cache
 * (see `serializerOf`); the class-schema generator is loaded only when a route declares a class.
 */
export class ResponseShaper {
  readonly #table: TypeTable | undefined;
  readonly #compiled = new Map<string, Serialize>();

  constructor(table: TypeTable | undefined) {
    this.#table = table;
  }

  /** `undefined` when the route declares no JSON shape, or opts out. */
  shapesOf(route: RouteInfo): ResponseShapes | undefined {
    const { options } = route;
    if (options.shapeResponse === false) return undefined;
    const shapes = new Map<number, Encode>();
    const seen = new Set<number>();
    const add = (status: number, declared: () => Declared) => {
      if (seen.has(status)) return;
      seen.add(status);
      const encode = this.#encoder(route, status, declared);
      if (encode) shapes.set(status, encode);
    };
    const success = options.status ?? 200;
    const types = methodTypes(this.#table, route);
    const read = (schema: unknown) => (): Declared => ({ schema, definitions: this.#table?.schemas ?? {} });
    const response = options.response;
    if (response) add(success, () => classSchema(route, success, response));
    else if (types?.returns?.kind === 'json') add(types.returns.status ?? success, read(types.returns.schema));
    else if (!types?.returns && declaresShape(route.returnType) && !route.builtIn) {
      throw new TrellisError('TRELLIS_ERR_RESPONSE_UNKNOWN', route.label, success, `${typeName(route.returnType)} (its TypeScript return type)`, UNREAD, SOURCES);
    }
    for (const [status, model] of Object.entries(options.responses ?? {})) {
      if (typeof model !== 'string') add(Number(status), () => classSchema(route, Number(status), model));
    }
    for (const fact of types?.statuses ?? []) {
      if (fact.schema) add(fact.status, read(fact.schema));
    }
    return shapes.size ? shapes : undefined;
  }

  // `undefined` for a schema that allows any value (`unknown`, `any`, what a JavaScript function returns): fast-json-stringify
  // would only call `JSON.stringify`, which the response does anyway.
  #encoder(route: RouteInfo, status: number, declared: () => Declared): Encode | undefined {
    let serialize: Serialize;
    try {
      const { schema, definitions } = declared();
      const compiled = serializerSchema(schema, definitions);
      const key = JSON.stringify(compiled);
      if (key === '{}') return undefined;
      serialize = this.#compiled.get(key) ?? serializerOf(compiled, route.source?.file);
      this.#compiled.set(key, serialize);
    } catch (error) {
      if (error instanceof TrellisError) throw error;
      throw new TrellisError('TRELLIS_ERR_RESPONSE_SCHEMA', route.label, status, messageOf(error));
    }
    const { label } = route;
    return (value) => {
      try {
        return serialize(value);
      } catch (error) {
        throw Object.defineProperty(new TrellisError('TRELLIS_ERR_RESPONSE_SHAPE', label, status, messageOf(error)), 'cause', { value: error });
      }
    };
  }
}

const UNREAD = 'in this process: its TypeScript source cannot be read (no .ts beside the .js nor named by a source map, or typescript and ts-json-schema-generator are not installed)';
const SOURCES = 'run the app with trellis run, deploy the output of trellis build, ship the .ts sources with source maps, or declare { response: SomeClass } with decorated properties';
const DECORATE = 'decorate the properties to send (class-validator rules such as @IsString(), @Allow(), or class-transformer\'s @Expose())';

// The schema of a class (or `[Class]`) as the docs have it: class-validator's rules, through class-validator-jsonschema,
// and class-transformer's @Expose() properties. A class none of whose properties is known (nested ones included)
// could only be sent whole: refused.
function classSchema(route: RouteInfo, status: number, model: Model): Declared {
  // A registry per model: two classes of one name (a clash the docs report) are still each shaped by their own rules.
  const { SchemaRegistry } = require('../openapi/schemas') as typeof import('../openapi/schemas');
  const registry = new SchemaRegistry();
  const schema = registry.schemaOf(model);
  const [shapeless] = registry.shapeless;
  if (shapeless !== undefined) {
    const declared = Array.isArray(model) ? `[${model[0].name}]` : model.name;
    const reason = `(${shapeless === (Array.isArray(model) ? model[0] : model).name ? 'it has' : `it nests ${shapeless}, which has`} no property with a class-validator or @Expose() decorator)`;
    throw new TrellisError('TRELLIS_ERR_RESPONSE_UNKNOWN', route.label, status, declared, reason, DECORATE);
  }
  return { schema, definitions: registry.schemas ?? {} };
}

const SCALARS = new Set<unknown>([String, Number, Boolean, Symbol, BigInt, Date]);

// What `design:returntype` says of a handler whose source is not read: a type with properties (an interface or
// object type is `Object`, `T[]` is `Array`, `Promise<T>` is `Promise`, a class itself), as opposed to nothing
// (no annotation, `void`), a scalar, or a Response.
function declaresShape(type: unknown): boolean {
  if (typeof type !== 'function' || SCALARS.has(type)) return false;
  return !(type === Response || type.prototype instanceof Response);
}

function typeName(type: unknown): string {
  return typeof type === 'function' && type.name ? type.name : String(type);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
