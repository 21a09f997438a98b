import type { IncomingMessage } from 'node:http';
import { errorResponse } from '../error-envelope';
import type { Response } from '../response';

const KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * What is wrong with an upgrade request as a WebSocket handshake (RFC 6455 §4.2.1), as the error response `ws`
 * itself would give in the app's envelope: a 400, naming the header; an unknown version is told the ones served
 * (`Sec-WebSocket-Version: 13, 8`). Undefined for a handshake `ws` accepts.
 *
 * @example
 * ```ts
 * handshakeRefusal(req)?.status; // 400 for a request without Sec-WebSocket-Key
 * ```
 */
export function handshakeRefusal(req: IncomingMessage): Response | undefined {
  const { headers } = req;
  if (req.method !== 'GET') return errorResponse(400, 'A WebSocket handshake is a GET request');
  if (headers.upgrade?.toLowerCase() !== 'websocket') return errorResponse(400, 'Upgrade: websocket is expected');
  if (!KEY.test(headers['sec-websocket-key'] ?? '')) return errorResponse(400, 'Missing or invalid Sec-WebSocket-Key header');
  const version = headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    return errorResponse(400, 'Missing or invalid Sec-WebSocket-Version header', { 'sec-websocket-version': '13, 8' });
  }
  return undefined;
}
