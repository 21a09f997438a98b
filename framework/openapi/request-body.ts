import type { RouteInfo } from '../routing/route-info';
import { isRequiredFile } from './error-statuses';
import type { SchemaRegistry } from './schemas';
import type { RequestBodyObject } from './types';

/**
 * The request body of a route: `multipart/form-data` with a binary field per `@UploadedFile(name)`, or
 * the JSON body of `@Body()` (its class, or `items: $ref` for `@Body({ type: Item }) items: Item[]`).
 */
export function requestBodyOf(route: RouteInfo, registry: SchemaRegistry): RequestBodyObject | undefined {
  const files = route.params.filter((p) => p.kind === 'file' && p.name);
  if (files.length) {
    // A file is optional (the handler gets `undefined`) unless required (a 400 when absent), and so is the
    // body unless a file is required: no body is an empty form.
    const properties = Object.fromEntries(files.map((p) => [p.name!, fileSchema(p.description)]));
    const required = files.filter(isRequiredFile).map((p) => p.name!);
    const schema = required.length ? { type: 'object', properties, required } : { type: 'object', properties };
    return { required: required.length > 0, content: { 'multipart/form-data': { schema } } };
  }
  const body = route.params.find((p) => p.kind === 'body');
  if (!body) return undefined;
  const designType = route.paramTypes[body.index];
  const schema = body.type ? registry.schemaOf([body.type as never]) : registry.schemaOf(designType as never);
  const requestBody: RequestBodyObject = { required: true, content: { 'application/json': { schema } } };
  if (body.description) requestBody.description = body.description;
  return requestBody;
}

function fileSchema(description: string | undefined): Record<string, unknown> {
  return description ? { type: 'string', format: 'binary', description } : { type: 'string', format: 'binary' };
}
