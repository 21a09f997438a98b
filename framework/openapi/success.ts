import type { MethodTypes, ReturnShape, TypeSchema } from '../source/types/table';
import { HTMLResponse, RedirectResponse, Response } from '../response';
import type { RouteInfo } from '../routing/route-info';
import type { SchemaRegistry } from './schemas';
import type { ResponseObject, SchemaObject } from './types';

const SUCCESS = 'Successful Response';
const BUILT_IN = new Set<unknown>([Object, Array, Promise, String, Number, Boolean, Date, Map, Set, Uint8Array, Buffer]);
const HTML = { 'text/html': { schema: { type: 'string' } } };
const ANY = { '*/*': { schema: {} } };
const BINARY = { '*/*': { schema: { type: 'string', format: 'binary' } } };
const EVENTS = { 'text/event-stream': { schema: { type: 'string' } } };
const LOCATION = { Location: { description: 'Where to go', schema: { type: 'string', format: 'uri-reference' } } };

/**
 * The success status of a route and its response, from the first that says: `options.response` (with
 * `options.status`, 200 by default); the handler's return type read from its source (`types.returns`); the
 * return type TypeScript emitted at run time (`design:returntype`, a class or nothing).
 */
export function successOf(route: RouteInfo, registry: SchemaRegistry, types: MethodTypes | undefined): [number, ResponseObject] {
  const { options } = route;
  if (options.response) return [options.status ?? 200, { description: SUCCESS, content: json(registry.schemaOf(options.response)) }];
  if (types?.returns) return fromSource(route, types.returns, registry);
  return fromMetadata(route, registry);
}

// The statuses as the pipeline answers them: a tuple's own status, `options.status` for a plain value, and
// `undefined` answered 204 unless `options.status` names another (see toResponse).
function fromSource(route: RouteInfo, shape: ReturnShape, registry: SchemaRegistry): [number, ResponseObject] {
  const optionStatus = route.options.status;
  switch (shape.kind) {
    case 'json': {
      const status = shape.status ?? optionStatus ?? 200;
      if (!hasContent(status)) return [status, { description: SUCCESS }];
      return [status, { description: SUCCESS, content: json(jsonSchema(route, shape.schema, registry)) }];
    }
    case 'empty': {
      const status = shape.status ?? (optionStatus === undefined || optionStatus === 200 ? 204 : optionStatus);
      return [status, { description: SUCCESS }];
    }
    case 'redirect':
      return [shape.status ?? optionStatus ?? 307, { description: 'Redirect', headers: LOCATION }];
    case 'html':
      return withContent(shape.status ?? optionStatus ?? 200, HTML);
    case 'file':
    case 'stream':
      // A file's type comes from its name, a stream's from its `contentType`: neither is known here.
      return withContent(shape.status ?? optionStatus ?? 200, BINARY);
    case 'events':
      return withContent(shape.status ?? optionStatus ?? 200, EVENTS);
    default:
      return withContent(shape.status ?? optionStatus ?? 200, ANY);
  }
}

// `(): TaskOut` of a class: design:returntype names the class itself (never for `TaskOut | null`, `TaskOut[]`,
// `Promise<TaskOut>`, which are Object, Array, Promise). Its component is the class's, merged with what the
// source says (whether the table names it or gives it inline), so that a DTO's validation rules show too.
function jsonSchema(route: RouteInfo, schema: TypeSchema, registry: SchemaRegistry): SchemaObject {
  const returned = route.returnType;
  if (!isUserClass(returned)) return registry.fromSource(schema);
  if (schema.$ref === `#/components/schemas/${returned.name}`) {
    registry.schemaOf(returned as never);
    return registry.fromSource(schema);
  }
  if (schema.type === 'object' && schema.$ref === undefined) return registry.declaredClass(returned as never, schema);
  return registry.fromSource(schema);
}

function isUserClass(type: unknown): type is Function {
  return typeof type === 'function' && !BUILT_IN.has(type) && !isSubclass(type, Response) && type.name !== '';
}

function fromMetadata(route: RouteInfo, registry: SchemaRegistry): [number, ResponseObject] {
  const { options, returnType } = route;
  if (isSubclass(returnType, RedirectResponse)) return [options.status ?? 307, { description: 'Redirect', headers: LOCATION }];
  const status = options.status ?? 200;
  if (!hasContent(status)) return [status, { description: SUCCESS }];
  if (isSubclass(returnType, HTMLResponse)) return withContent(status, HTML);
  if (isSubclass(returnType, Response)) return withContent(status, ANY);
  return [status, { description: SUCCESS, content: json(registry.schemaOf(returnType as never)) }];
}

function withContent(status: number, content: ResponseObject['content']): [number, ResponseObject] {
  return hasContent(status) ? [status, { description: SUCCESS, content }] : [status, { description: SUCCESS }];
}

function hasContent(status: number): boolean {
  return status !== 204 && status !== 304;
}

function json(schema: SchemaObject): ResponseObject['content'] {
  return { 'application/json': { schema } };
}

function isSubclass(type: unknown, base: Function): boolean {
  return typeof type === 'function' && (type === base || type.prototype instanceof base);
}
