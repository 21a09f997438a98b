import { STATUS_CODES, type OutgoingHttpHeaders } from 'node:http';
import { JSONResponse } from './response';

/**
 * The one owner of the JSON error envelope: `{"error": message}` as `application/json; charset=utf-8`, with the
 * request id and `X-Content-Type-Options: nosniff`, and the status's reason phrase as its status text. The
 * pipeline's errors (`errorResponse`) and the answers the writer sends outside it (`errorEnvelope`: the 500 that
 * replaces a response Node refused, the body timeout's 408, what Node's parser refuses before any listener runs)
 * all take it from here, and write.ts writes them all, so a client sees one shape whichever layer answered.
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** The pipeline's error response: `{ error: message }` (an `HTTPException`'s extra fields after it) with `status`. */
export function errorResponse(status: number, message: string, headers?: Record<string, string | string[]>, extra?: object): JSONResponse {
  return new JSONResponse(extra ? { error: message, ...extra } : { error: message }, { status, headers });
}

/**
 * Gives a response's headers the request id and `nosniff` (unless the response chose its own
 * `X-Content-Type-Options`): every response carries them, errors or not.
 */
export function markHeaders(headers: OutgoingHttpHeaders, requestId: string): void {
  headers['x-request-id'] = requestId;
  headers['x-content-type-options'] ??= 'nosniff';
}

/** What a writer outside the pipeline sends for `status`: its reason phrase, the envelope's headers and body. */
export interface ErrorEnvelope {
  reason: string;
  headers: OutgoingHttpHeaders;
  body: string;
}

/**
 * The envelope for `status` (its reason phrase as the message), `Connection: close` with `close`, for the answers
 * the writer (write.ts) sends on Node's response or as raw bytes on a socket: a refused `writeHead`'s 500, the
 * body timeout's 408, and what Node's parser refuses before any listener runs.
 */
export function errorEnvelope(status: number, requestId: string, close: boolean): ErrorEnvelope {
  const reason = STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify({ error: reason });
  const headers: OutgoingHttpHeaders = { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)) };
  markHeaders(headers, requestId);
  if (close) headers.connection = 'close';
  return { reason, headers, body };
}
