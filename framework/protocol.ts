import type { IncomingMessage } from 'node:http';

/** Most header lines a request may have (431 above it): Node would silently drop the ones past its own cap. */
export const MAX_HEADER_LINES = 1000;

/**
 * What HTTP itself forbids and Node's parser lets through, checked before routing: `[status, message]` for a
 * request to refuse, else `undefined`. More than {@link MAX_HEADER_LINES} header lines is a 431; an HTTP/1.1
 * request without `Host`, or any with two, a 400 (RFC 9112 3.2); a transfer coding other than `chunked`
 * (`gzip, chunked`) a 501, as RFC 9112 6.1 asks: the body would be read as if it were not encoded.
 */
export function protocolRefusal(req: IncomingMessage): [number, string] | undefined {
  const raw = req.rawHeaders;
  if (raw.length > 2 * MAX_HEADER_LINES) return [431, `Request has more than ${MAX_HEADER_LINES} header lines`];
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return [400, 'Request has more than one Host header'];
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return [400, 'Request has no Host header'];
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') {
    return [501, 'Transfer-Encoding other than chunked is not supported'];
  }
  return undefined;
}
