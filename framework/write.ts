import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { Logger } from './core/logger';
import type { Request } from './request';
import type { Response } from './response';
import { announcesBody } from './pipeline/body';
import { markHeaders, writeError } from './error-envelope';
import { ANSWERED } from './protocol';
import { RESPONSE } from './symbols';
import { watchSending } from './server-timeouts';

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
  watchSending(res.req.socket, res);
}

/** Logs a failure of `request` as `{ err, reqId }`; a logger that throws cannot break the request path. */
export function report(logger: Logger, request: Request, what: string, error: unknown): void {
  try {
    logger.error({ err: error, reqId: request.id }, `${request.method} ${request.path}: ${what}`);
  } catch {
    // Nowhere left to report it.
  }
}
