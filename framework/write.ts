import type { ServerResponse } from 'node:http';
import type { Response } from './response';

/** Sends `response` on Node's `res`. HEAD requests and 204/304 get headers only. */
export function writeResponse(res: ServerResponse, response: Response, head: boolean): void {
  if (res.headersSent || res.writableEnded) return;
  const { status, body } = response;
  const headers = response.headers.toObject();
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const length = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (headers['content-length'] === undefined) headers['content-length'] = String(length);
  res.writeHead(status, headers);
  if (head || body === undefined) res.end();
  else res.end(body);
}
