import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { JSONResponse } from './response';

/**
 * The one owner of the JSON error envelope: `{"error": message}` as `application/json; charset=utf-8`, with the
 * request id and `X-Content-Type-Options: nosniff`, and the status's reason phrase as its status text. The
 * pipeline's errors (`errorResponse`, written by `writeResponse`), the 500 that replaces a response Node refused,
 * the body timeout's 408 (`writeError`) and what Node's parser refuses before any listener runs (`rawError`, on
 * the socket) all take it from here, so a client sees one shape whichever layer answered.
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

/** The same two headers set on Node's response, for an answer written straight to it (Express middleware). */
export function markResponse(res: ServerResponse, requestId: string): void {
  res.setHeader('x-request-id', requestId);
  res.setHeader('x-content-type-options', 'nosniff');
}

/**
 * Writes the envelope for `status` (its reason phrase as the message) on Node's response, `Connection: close`
 * with `close`; `done` runs once it is flushed. The status text is named again: a refused `writeHead` may have
 * set one already ("500 OK").
 */
export function writeError(res: ServerResponse, status: number, requestId: string, close: boolean, done?: () => void): void {
  const message = reasonOf(status);
  const body = bodyOf(message);
  const headers: OutgoingHttpHeaders = { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)) };
  markHeaders(headers, requestId);
  if (close) headers.connection = 'close';
  res.writeHead(status, message, headers);
  res.end(body, done);
}

/** The envelope as the bytes of a whole HTTP/1.1 response that closes the connection, for a socket no response owns. */
export function rawError(status: number, requestId: string): string {
  const message = reasonOf(status);
  const body = bodyOf(message);
  return (
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: ${JSON_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

function reasonOf(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

function bodyOf(message: string): string {
  return JSON.stringify({ error: message });
}
