import { Readable } from 'node:stream';
import type { ResponseShapes } from './core/response-shapes';
import { JSONResponse, Response, isStatus } from './response';
import { ENCODED } from './symbols';
import { StreamingResponse } from './responses/streaming';

/**
 * Turns what a handler returned into a response: a `Response` as is; `[body, status]` with that status;
 * `undefined` as 204; bytes as `application/octet-stream`; a `Readable` or an async iterable (an
 * `async function*`'s generator, a web `ReadableStream`) streamed as a `StreamingResponse`, also
 * `application/octet-stream` (Fastify and Hono send a stream with no type; here it is named like bytes:
 * return a `StreamingResponse` with `contentType` to name another); anything else as JSON with `status`.
 * A JSON body whose status has a declared shape in `shapes` (a route's, see `ResponseShaper`) is encoded by it:
 * its undeclared properties are not sent. A `Response` (an explicit `JSONResponse` included) is sent as given.
 */
export function toResponse(value: unknown, status = 200, shapes?: ResponseShapes): Response {
  if (value instanceof Response) return value;
  if (value === undefined) return new Response(undefined, { status: status === 200 ? 204 : status });
  if (Array.isArray(value) && value.length === 2 && isStatus(value[1])) {
    const [body, tupleStatus] = value;
    if (body instanceof Response) {
      body.status = tupleStatus;
      return body;
    }
    return bodyResponse(body ?? null, tupleStatus, shapes);
  }
  return bodyResponse(value, status, shapes);
}

function bodyResponse(value: unknown, status: number, shapes: ResponseShapes | undefined): Response {
  if (value instanceof Uint8Array) {
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return new Response(bytes, { status, headers: { 'content-type': 'application/octet-stream' } });
  }
  if (isStream(value)) return new StreamingResponse(value, { status });
  const encode = shapes?.get(status);
  return new JSONResponse(value, encode ? { status, [ENCODED]: encode(value) } : { status });
}

function isStream(value: unknown): value is Readable | AsyncIterable<string | Uint8Array> {
  return (
    value instanceof Readable ||
    (typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  );
}
