import { JSONResponse, Response, isStatus } from './response';

/**
 * Turns what a handler returned into a response: a `Response` as is; `[body, status]` with that status;
 * `undefined` as 204; bytes as `application/octet-stream`; anything else as JSON with `status`.
 */
export function toResponse(value: unknown, status = 200): Response {
  if (value instanceof Response) return value;
  if (value === undefined) return new Response(undefined, { status: status === 200 ? 204 : status });
  if (Array.isArray(value) && value.length === 2 && isStatus(value[1])) {
    const [body, tupleStatus] = value;
    if (body instanceof Response) {
      body.status = tupleStatus;
      return body;
    }
    return new JSONResponse(body ?? null, { status: tupleStatus });
  }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    return new Response(Buffer.from(value), { status, headers: { 'content-type': 'application/octet-stream' } });
  }
  return new JSONResponse(value, { status });
}
