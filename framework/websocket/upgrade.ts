import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../core/logger';
import { errorResponse } from '../error-envelope';
import { HTTPException } from '../http-exception';
import { compose, type Middleware, type Step } from '../middleware';
import { DEFAULT_JSON_LIMITS } from '../pipeline/body';
import { bodyReader } from '../pipeline/body-reader';
import { Request, type RequestContext } from '../request';
import { Response } from '../response';
import { report } from '../report';
import { canonicalPath } from '../routing/canonical-path';
import { DEFAULT_UPLOAD_LIMITS } from '../uploads/limits';
import { writeResponse } from '../write';

/** What the guards of a gateway decided about an upgrade request. */
export type GuardOutcome = { passed: true; request: Request } | { passed: false };

// What the end of a gateway's guard chain returns: the guards let the request through.
const PASSED = new Response(undefined, { status: 204 });

/** The request context of upgrade requests: they have no body to read. */
export function upgradeContext(logger: Logger): RequestContext {
  return { reader: bodyReader, bodyLimit: 0, uploadLimits: DEFAULT_UPLOAD_LIMITS, jsonLimits: DEFAULT_JSON_LIMITS, templates: undefined, logger };
}

/** The canonical path and the query of an upgrade request, or undefined for a path HTTP forbids. */
export function upgradeTarget(req: IncomingMessage): { path: string; search: string } | undefined {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = canonicalPath(q < 0 ? url : url.slice(0, q));
  return path === undefined ? undefined : { path, search: q < 0 ? '' : url.slice(q + 1) };
}

/**
 * Whether the handshake is one `ws` accepts (GET, `Upgrade: websocket`, a key, version 8 or 13): the guards run
 * only for those; `ws` answers the others 400 itself.
 */
export function isHandshake(req: IncomingMessage): boolean {
  const { headers } = req;
  return (
    req.method === 'GET' &&
    headers.upgrade?.toLowerCase() === 'websocket' &&
    /^[+/0-9A-Za-z]{22}==$/.test(headers['sec-websocket-key'] ?? '') &&
    (headers['sec-websocket-version'] === '13' || headers['sec-websocket-version'] === '8')
  );
}

/**
 * Compiles a gateway's guards into one check of an upgrade request: each middleware's `dispatch` runs as on a
 * route, with a trellis `Request` of the upgrade; one that answers (a 401, a 403) has that response written on the
 * socket by the one writer, with `Connection: close`, and the socket closed. An error a guard throws is its
 * `HTTPException`'s answer, or a 500 logged.
 */
export function guardCheck(guards: Middleware[], logger: Logger): (req: IncomingMessage, socket: Duplex, path: string, search: string, context: RequestContext) => Promise<GuardOutcome> {
  const onError = (error: unknown, request: Request): Response => {
    if (error instanceof HTTPException) return errorResponse(error.status, error.message, error.headers, error.extra);
    report(logger, request, 'a WebSocket guard failed', error);
    return errorResponse(500, 'Internal Server Error');
  };
  const chain: Step = compose(guards, () => PASSED, onError);
  return async (req, socket, path, search, context) => {
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    const request = new Request(req, res, path, search, context);
    const response = await chain(request);
    if (response === PASSED) {
      res.detachSocket(socket as Socket);
      return { passed: true, request };
    }
    response.headers.set('connection', 'close');
    res.on('finish', () => (socket as Socket).destroySoon());
    writeResponse(request, response, logger);
    return { passed: false };
  };
}
