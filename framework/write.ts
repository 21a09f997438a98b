import type { ServerResponse } from 'node:http';
import type { Response } from './response';

/**
 * Sends `response` on Node's `res` with the request id. HEAD requests and 204/304 get headers only.
 * Headers go in one `writeHead` object: `setHeader` first would send Node down its slower merging path.
 */
export function writeResponse(res: ServerResponse, response: Response, head: boolean, requestId: string): void {
  if (res.headersSent || res.writableEnded) return;
  const { status, body } = response;
  const headers = response.headers.toObject();
  headers['x-request-id'] = requestId;
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
