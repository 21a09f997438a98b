import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Readable, type Duplex } from 'node:stream';
import type { Logger } from './core/logger';
import type { Request } from './request';
import type { Response } from './response';
import { announcesBody } from './pipeline/body';
import { errorEnvelope, markHeaders } from './error-envelope';
import { report } from './report';
import { ANSWERED, RESPONSE, SEND_TIMEOUT } from './symbols';

// The writer: the one place a trellis answer reaches Node (`writeHead`, `end`, a piped stream, or the raw bytes
// of a socket no response owns), as Koa's respond() and Fastify's reply.js. The listener hands it the pipeline's
// response; the server, its timeouts and the Express adapter call it for the answers they give themselves.

/**
 * Sends `response` for `request`: the request id and `X-Content-Type-Options: nosniff` on every response,
 * headers only for HEAD and 204/304. Headers go in one `writeHead` object: `setHeader` first would send Node
 * down its slower merging path.
 *
 * Nothing here can throw into the request path. Node's `writeHead` checks the status and every header before
 * it writes a byte, and throws on a value with CR, LF, NUL or a character above U+00FF (a request value
 * copied into `Content-Disposition`, say); that response becomes a 500 `{"error"}`, logged once with the
 * request id, and the connection serves on.
 *
 * A request whose body was not read to its end (answered early: 401, 404, 413 in the middle of an upload)
 * gets `Connection: close` unless what is left is bounded (a request that frames no body has none left,
 * even when it is answered before Node has marked it complete): Node then discards the rest only until the
 * response is flushed and closes the socket, instead of reading an endless body or leaving the next request
 * on the socket stuck behind it.
 */
export function writeResponse(request: Request, response: Response, logger: Logger): void {
  const res = request[RESPONSE];
  // Written around the pipeline (Express middleware that answered itself): its bytes may still be waiting.
  if (res.headersSent || res.writableEnded) return watchSending(request.raw.socket, res);
  const { status, body } = response;
  const headers = response.headers.toObject();
  markHeaders(headers, request.id);
  const close = request.raw.complete === false && announcesBody(request.raw.headers) && !drainRest(request);
  if (close) headers.connection = 'close';
  const empty = status === 204 || status === 304 || status < 200;
  const stream = body instanceof Readable ? body : undefined;
  if (!empty && !stream && headers['content-length'] === undefined) {
    headers['content-length'] = String(body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : (body as Buffer).length);
  }
  try {
    // Node accepts 100-999; a status is 100-599 (middleware may have set `response.status` to anything).
    if (!(status >= 100 && status <= 599 && Number.isInteger(status))) throw new RangeError(`Invalid status ${status}`);
    res.writeHead(status, headers);
  } catch (error) {
    stream?.destroy();
    writeFailure(res, request.id, close);
    report(logger, request, 'the response could not be sent', error);
    return;
  }
  const bodiless = empty || body === undefined || request.method === 'HEAD';
  if (stream && !bodiless) return pipeStream(request, stream, logger);
  stream?.destroy();
  if (bodiless) res.end();
  else res.end(body);
  watchSending(request.raw.socket, res);
}

/**
 * Pipes a stream body with backpressure. A client that goes away destroys the stream (its source stops: an
 * async generator's `finally` runs); a stream that fails mid-way cuts the response, since its status and
 * headers are already sent, and is logged.
 */
function pipeStream(request: Request, stream: Readable, logger: Logger): void {
  watchSending(request.raw.socket, request[RESPONSE], true);
  pipeline(stream, request[RESPONSE], (error) => {
    if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      report(logger, request, 'the response stream failed', error);
    }
  });
}

/**
 * Whether the unread rest of a request's body may be drained to keep the connection: only a `Content-Length`
 * body within the body limit (a small body that arrived in the same packet is often not parsed yet when a
 * middleware answers). Chunked or larger bodies close the connection. A drained socket is marked so that a
 * request timeout firing while the rest trickles in closes it instead of sending a second response (a 408).
 */
function drainRest(request: Request): boolean {
  const req = request.raw;
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined || length === undefined || !(Number(length) <= request.bodyLimit)) return false;
  const socket = req.socket as (typeof req.socket & { [ANSWERED]?: boolean }) | null;
  if (!socket) return true;
  socket[ANSWERED] = true;
  req.once('end', () => (socket[ANSWERED] = false));
  // A reader that stopped half-way (a limit, a parse error) paused the stream: Node only drains unread ones.
  if (req.isPaused()) req.resume();
  return true;
}

/**
 * The 500 that replaces a response Node refused, or ends a request whose pipeline failed: headers set
 * earlier on `res` (by Express middleware, or by the refused `writeHead`) are dropped, since one of them
 * may be the bad one.
 */
export function writeFailure(res: ServerResponse, requestId: string, close: boolean): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy(); // a body already under way cannot become a 500
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  writeError(res, 500, requestId, close);
}

/**
 * Writes the error envelope for `status` on Node's response, `Connection: close` with `close`; `done` runs once it
 * is flushed. The status text is named again: a refused `writeHead` may have set one already ("500 OK").
 */
export function writeError(res: ServerResponse, status: number, requestId: string, close: boolean, done?: () => void): void {
  const { reason, headers, body } = errorEnvelope(status, requestId, close);
  res.writeHead(status, reason, headers);
  res.end(body, done);
  watchSending(res.req.socket, res);
}

/**
 * Answers on a socket no response owns (a request Node's parser refused before any listener ran) with the error
 * envelope for `status` as the bytes of a whole HTTP/1.1 response that closes the connection.
 */
export function writeSocketError(socket: Duplex, status: number, requestId: string): void {
  const { reason, headers, body } = errorEnvelope(status, requestId, true);
  socket.write(`HTTP/1.1 ${status} ${reason}\r\n${headerLines(headers)}\r\n${body}`);
}

// `Content-Type: ...\r\n` lines, names in their usual capitals.
function headerLines(headers: OutgoingHttpHeaders): string {
  let lines = '';
  for (const name of Object.keys(headers)) lines += `${name.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase())}: ${String(headers[name])}\r\n`;
  return lines;
}

/**
 * Gives Node's response the request id and `nosniff` before an Express middleware runs, for an answer it writes
 * by itself (through Node's response, around the pipeline), and watches its sending from the start.
 */
export function markForMiddleware(request: Request): void {
  const res = request[RESPONSE];
  res.setHeader('x-request-id', request.id);
  res.setHeader('x-content-type-options', 'nosniff');
  watchSending(request.raw.socket, res, true);
}

type ServerSocket = Socket & { [SEND_TIMEOUT]?: number };

/**
 * Arms the send timeout of `socket` (its server's `sendTimeout`, server-timeouts.ts) when bytes written for `res`
 * wait to go out, or always with `streaming` (a body still to come). Nothing on a socket of a server that `listen`
 * did not make.
 */
export function watchSending(socket: Socket | null, res: ServerResponse, streaming = false): void {
  const timeout = (socket as ServerSocket | null)?.[SEND_TIMEOUT];
  if (timeout && (streaming || res.writableLength > 0) && !socket!.destroyed) socket!.setTimeout(timeout);
}
