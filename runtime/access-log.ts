import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestListener } from '../framework/internal';
import type { RunLog } from './run-log';

const START = Symbol('trellis.start');
const TARGET = Symbol('trellis.target');

interface Tracked extends ServerResponse {
  [START]: number;
  [TARGET]: string;
}

/**
 * Wraps the app's listener to log one line per request once it is answered or aborted: method, path, status
 * (499 when the client went away first), duration in ms and the request id the app answered with.
 * The URL is read before the app runs (Express rewrites `req.url` inside mounted routers). Per request this
 * stores two fields on the response and adds one shared listener: no closure, no timer, no date formatting.
 */
export function withAccessLog(app: RequestListener, log: RunLog): RequestListener {
  function logRequest(this: Tracked): void {
    const url = this[TARGET];
    const q = url.indexOf('?');
    log.access(
      this.req.method!,
      q < 0 ? url : url.slice(0, q),
      this.writableFinished ? this.statusCode : 499,
      Math.round((performance.now() - this[START]) * 100) / 100,
      answeredId(this),
    );
  }
  return (req: IncomingMessage, res: ServerResponse) => {
    const tracked = res as Tracked;
    tracked[START] = performance.now();
    tracked[TARGET] = req.url ?? '/';
    res.on('close', logRequest);
    app(req, res);
  };
}

/** The request id the app answered with: the trellis listener sets it on the Node request (`req.id`). */
function answeredId(res: ServerResponse): string | undefined {
  return (res.req as IncomingMessage & { id?: string } | undefined)?.id;
}
