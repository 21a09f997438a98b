import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger as Pino } from 'pino';
import type { Logger, RequestListener } from '../../framework/index';
import { BatchedDestination } from './log-destination';

export type { Pino };

/**
 * The run logger: pino (JSON lines: `level`, epoch `time`, fields, `msg`) on stdout, written in batches
 * off the request path (see {@link BatchedDestination}), so an access line costs about a microsecond.
 */
export function createRunLogger(destination: BatchedDestination = new BatchedDestination()): Pino {
  return pino({ base: undefined }, destination);
}

/** The app's logger for unexpected errors (message and stack in one JSON line). */
export function appLogger(log: Pino): Logger {
  return { error: (message, error) => log.error({ err: error }, message) };
}

/**
 * Wraps the app's listener to log one line per request once it is answered or aborted: method, path
 * (without the query string, which may carry secrets), status (499 when the client went away first),
 * duration in ms and the request id the app answered with.
 */
export function withAccessLog(app: RequestListener, log: Pino): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    res.once('close', function logRequest() {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      log.info(
        {
          method: req.method,
          path: q < 0 ? url : url.slice(0, q),
          status: res.writableFinished ? res.statusCode : 499,
          ms: Math.round((performance.now() - start) * 100) / 100,
          id: res.getHeader('x-request-id'),
        },
        'request',
      );
    });
    app(req, res);
  };
}
