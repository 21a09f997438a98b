import { defaultMessage } from '../http-exception';
import type { Class } from '../core/types';
import type { RouteInfo } from '../routing/route-info';
import type { MethodTypes } from '../source/types/table';
import { errorStatusesOf, type ErrorStatus, type ExceptionStatus } from './error-statuses';
import type { SchemaRegistry } from './schemas';
import { successOf } from './success';
import type { ResponseObject, SchemaObject } from './types';

const VALIDATION_DETAIL = {
  type: 'object',
  properties: {
    location: { type: 'string', enum: ['path', 'query', 'header', 'body'] },
    field: { type: 'string' },
    message: { type: 'string' },
  },
  required: ['location', 'field', 'message'],
};

/** The `{ error }` body of every error trellis answers (`HTTPException`, guards' 401). */
export const HTTP_ERROR = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

/** What the responses of one route are built from, besides the route. */
export interface ResponseSources {
  registry: SchemaRegistry;
  /** Whether the route reads path, query, header or body values (a 422 when they fail). */
  takesInput: boolean;
  /** What the handler's source says (its return type, the statuses its body answers, the classes it throws). */
  types?: MethodTypes;
  exceptionStatus?: ExceptionStatus;
}

/**
 * The responses of a route: the success status with its model (see {@link successOf}), the statuses in
 * `options.responses` (which win over anything else for their status), a 422 when the route reads input,
 * then every other status the route can answer (see {@link errorStatusesOf}), with the `{ error }` body
 * unless the handler returns another with it. Statuses found twice share one response, their descriptions
 * joined.
 */
export function responsesOf(route: RouteInfo, sources: ResponseSources): Record<string, ResponseObject> {
  const { registry, takesInput, types, exceptionStatus } = sources;
  const { options } = route;
  const [status, success] = successOf(route, registry, types);
  const responses: Record<string, ResponseObject> = { [status]: success };
  const declared = new Set(Object.keys(options.responses ?? {}));
  for (const [status, model] of Object.entries(options.responses ?? {})) {
    responses[status] = declaredResponse(Number(status), model, registry);
  }
  if (takesInput && !responses['422']) {
    const details = registry.define('ValidationDetail', VALIDATION_DETAIL);
    const envelope = {
      type: 'object',
      properties: { error: { type: 'string', const: 'Validation failed' }, details: { type: 'array', items: details } },
      required: ['error', 'details'],
    };
    responses['422'] = { description: 'Validation Error', content: json(registry.define('HTTPValidationError', envelope)) };
  }
  const fixed = new Set([...declared, String(status)]);
  for (const error of errorStatusesOf(route, types, exceptionStatus)) addStatus(responses, fixed, error, registry);
  return responses; // integer keys: in ascending order
}

// A status already documented by the route's options or its success is left as it is; one found before
// gets this description too and, if its body differs, either body (`anyOf`).
function addStatus(responses: Record<string, ResponseObject>, fixed: Set<string>, error: ErrorStatus, registry: SchemaRegistry): void {
  const key = String(error.status);
  if (fixed.has(key)) return;
  const schema = error.schema ? registry.fromSource(error.schema) : error.status >= 400 ? registry.define('HTTPError', HTTP_ERROR) : undefined;
  const existing = responses[key];
  if (!existing) {
    responses[key] = schema ? { description: error.description, content: json(schema) } : { description: error.description };
    return;
  }
  if (!existing.description.split('; ').includes(error.description)) existing.description += `; ${error.description}`;
  const current = existing.content?.['application/json']?.schema;
  if (!schema || !current || sameSchema(current, schema)) return;
  const options = ((current as { anyOf?: SchemaObject[] }).anyOf) ?? [current];
  if (!options.some((option) => sameSchema(option, schema))) existing.content = json({ anyOf: [...options, schema] });
}

/** `{ 404: ErrorOut }` documents that model; `{ 404: 'Task not found' }` the `{ error }` body with that description. */
function declaredResponse(status: number, model: Class | [Class] | string, registry: SchemaRegistry): ResponseObject {
  if (typeof model === 'string') {
    const response: ResponseObject = { description: model };
    if (status >= 400) response.content = json(registry.define('HTTPError', HTTP_ERROR));
    return response;
  }
  return { description: defaultMessage(status), content: json(registry.schemaOf(model)) };
}

function sameSchema(a: SchemaObject, b: SchemaObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function json(schema: SchemaObject): ResponseObject['content'] {
  return { 'application/json': { schema } };
}
