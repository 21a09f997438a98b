import type { MethodTypes, ReturnShape } from '../source/types/table';
import { HTMLResponse, RedirectResponse, Response } from '../response';
import type { RouteInfo } from '../routing/collect';
import type { SchemaRegistry } from './schemas';
import type { ResponseObject, SchemaObject } from './types';

const SUCCESS = 'Successful Response';
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
  if (types?.returns) {
    const { returns } = types;
    // `(): TaskOut` of a DTO class: registered too, so that its component merges its validation rules.
    const returned = route.returnType;
    if (returns.kind === 'json' && typeof returned === 'function' && returns.schema.$ref === `#/components/schemas/${returned.name}`) {
      registry.schemaOf(returned as never);
    }
    return fromSource(returns, options.status, registry);
  }
  return fromMetadata(route, registry);
}

// The statuses as the pipeline answers them: a tuple's own status, `options.status` for a plain value, and
// `undefined` answered 204 unless `options.status` names another (see toResponse).
function fromSource(shape: ReturnShape, optionStatus: number | undefined, registry: SchemaRegistry): [number, ResponseObject] {
  switch (shape.kind) {
    case 'json': {
      const status = shape.status ?? optionStatus ?? 200;
      if (!hasContent(status)) return [status, { description: SUCCESS }];
      return [status, { description: SUCCESS, content: json(registry.fromSource(shape.schema)) }];
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
