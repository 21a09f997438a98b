import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestListener } from '../../framework/index';
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

const ID_LINE = '\r\nx-request-id: ';

/**
 * The `X-Request-Id` the response carried. The framework passes its headers to `writeHead` in one object
 * (Node's fast path, which keeps no copy for `getHeader`), so once they are sent the id is read from the
 * header block Node wrote (`_header`, set when they are sent); before that, from `getHeader`.
 */
function answeredId(res: ServerResponse): string | undefined {
  const head = (res as { _header?: string | null })._header;
  if (!head) {
    const set = res.getHeader('x-request-id');
    return set === undefined ? undefined : String(set);
  }
  let at = head.indexOf(ID_LINE);
  if (at < 0) at = head.search(/\r\nx-request-id: /i);
  if (at < 0) return undefined;
  const start = at + ID_LINE.length;
  return head.slice(start, head.indexOf('\r\n', start));
}
