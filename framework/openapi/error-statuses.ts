import { defaultMessage } from '../http-exception';
import type { ParamDefinition } from '../metadata';
import type { RouteInfo } from '../routing/route-info';
import type { MethodTypes, TypeSchema } from '../source/types/table';

/**
 * The status the app's exception handlers answer for an error class, by the class's name (`NotFoundError`
 * -> 404), or `undefined` when none is registered for it or its status cannot be told. `buildOpenAPI` maps
 * the classes a handler's body throws (`MethodTypes.throws`) through it; an object also gives the body's
 * schema when it is not the `{ error }` one.
 *
 * @example
 * ```ts
 * const exceptionStatus: ExceptionStatus = (name) => (name === 'NotFoundError' ? 404 : undefined);
 * ```
 */
export type ExceptionStatus = (className: string) => number | { status: number; schema?: TypeSchema } | undefined;

/** A status a route may answer besides its success and the 422 of its inputs; no `schema` is the `{ error }` body. */
export interface ErrorStatus {
  status: number;
  description: string;
  schema?: TypeSchema;
}

// What the request pipeline answers while reading a `@Body()` (pipeline/body.ts, pipeline/arguments.ts).
const JSON_BODY: ErrorStatus[] = [
  { status: 400, description: 'Malformed JSON body (or nested deeper than 64 levels, or with "__proto__" keys)' },
  { status: 413, description: 'Body too large (over the body limit, or too many keys, objects and arrays, or items)' },
  { status: 415, description: 'Content-Type is not application/json in UTF-8, or the Content-Encoding is not supported' },
];

// What reading `@UploadedFile` parts answers (pipeline/body-reader.ts, uploads/multipart.ts, uploads/file-param.ts).
const UPLOAD_400 = 'Malformed multipart body, another content type, or a file field the route does not take';
const UPLOAD_413 = 'A file or form field over the upload limits';

/**
 * What a route can answer besides its success: each status its handler's body answers (`types.statuses`,
 * described by their literal message, else the status text), the statuses of the error classes it throws as
 * the app's exception handlers answer them, then what reading its body answers (a JSON body: 400, 413, 415;
 * uploaded files: 400, 413).
 */
export function errorStatusesOf(route: RouteInfo, types: MethodTypes | undefined, exceptionStatus?: ExceptionStatus): ErrorStatus[] {
  const found: ErrorStatus[] = [];
  for (const fact of types?.statuses ?? []) {
    found.push({ status: fact.status, description: fact.message || defaultMessage(fact.status), ...(fact.schema ? { schema: fact.schema } : {}) });
  }
  for (const name of types?.throws ?? []) {
    const answer = exceptionStatus?.(name);
    if (answer === undefined) continue;
    const { status, schema } = typeof answer === 'number' ? { status: answer, schema: undefined } : answer;
    found.push({ status, description: defaultMessage(status), ...(schema ? { schema } : {}) });
  }
  if (route.params.some((p) => p.kind === 'body')) found.push(...JSON_BODY);
  const files = route.params.filter((p) => p.kind === 'file');
  if (files.length) {
    const required = files.filter(isRequiredFile).map((p) => JSON.stringify(p.name));
    const missing = required.length ? `; a missing file (${required.join(', ')})` : '';
    found.push({ status: 400, description: UPLOAD_400 + missing }, { status: 413, description: UPLOAD_413 });
  }
  return found;
}

/** Whether an `@UploadedFile` parameter must be sent: `@UploadedFile(name, { required: true })`, a 400 when absent. */
export function isRequiredFile(param: ParamDefinition): boolean {
  return param.required === true;
}

