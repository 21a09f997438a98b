import { defaultMessage } from '../http-exception';
import type { Class } from '../metadata';
import { HTMLResponse, RedirectResponse, Response } from '../response';
import type { RouteInfo } from '../routing/collect';
import type { SchemaRegistry } from './schemas';
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

/**
 * The responses of a route: the success status with its model (`options.response`, else the declared
 * return type when it is a class; `text/html` for `HTMLResponse`, a 3xx with `Location` for
 * `RedirectResponse`), the statuses in `options.responses`, and a 422 when the route reads input.
 */
export function responsesOf(route: RouteInfo, registry: SchemaRegistry, takesInput: boolean): Record<string, ResponseObject> {
  const { options } = route;
  const returned = route.returnType;
  const responses: Record<string, ResponseObject> = {};
  if (isSubclass(returned, RedirectResponse)) {
    responses[String(options.status ?? 307)] = {
      description: 'Redirect',
      headers: { Location: { description: 'Where to go', schema: { type: 'string', format: 'uri-reference' } } },
    };
  } else {
    const status = options.status ?? 200;
    const success: ResponseObject = { description: 'Successful Response' };
    if (status !== 204 && status !== 304) success.content = successContent(route, registry);
    responses[String(status)] = success;
  }
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
  return responses;
}

function successContent(route: RouteInfo, registry: SchemaRegistry): ResponseObject['content'] {
  const declared = route.options.response;
  if (declared) return json(registry.schemaOf(declared));
  const returned = route.returnType;
  if (isSubclass(returned, HTMLResponse)) return { 'text/html': { schema: { type: 'string' } } };
  if (isSubclass(returned, Response)) return { '*/*': { schema: {} } };
  return json(registry.schemaOf(returned as never));
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

function json(schema: SchemaObject): ResponseObject['content'] {
  return { 'application/json': { schema } };
}

function isSubclass(type: unknown, base: Function): boolean {
  return typeof type === 'function' && (type === base || type.prototype instanceof base);
}
