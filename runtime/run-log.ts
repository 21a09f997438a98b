import { createLogger, type Logger } from '../framework/index';
import { BatchedDestination } from './log-destination';

/**
 * The log of `trellis run` and of a built app: one pino logger (the framework's `createLogger`) for the access
 * lines, the app's unexpected errors and what handlers write to `request.log`. On a terminal its lines are
 * pino-pretty's; otherwise JSON lines (`level`, epoch `time`, fields, `msg`) written in batches off the request
 * path by a {@link BatchedDestination}.
 *
 * @example
 * ```ts
 * const log = new RunLog(false);
 * log.access('GET', '/tasks/1', 200, 0.42, 'b2f…');
 * // {"level":30,"time":1732238400000,"method":"GET","path":"/tasks/1","status":200,"ms":0.42,"reqId":"b2f…","msg":"request"}
 * ```
 */
export class RunLog {
  /** The app's logger (`AppOptions.logger`): errors as `{ err, reqId }`, and `request.log`'s lines. */
  readonly logger: Logger;
  readonly #batched: BatchedDestination | undefined;

  constructor(pretty = process.stdout.isTTY === true, out: BatchedDestination = new BatchedDestination()) {
    this.#batched = pretty ? undefined : out;
    this.logger = createLogger({ pretty, destination: this.#batched });
  }

  /**
   * One request: `method` as Node's parser read it, `path` without the query string (which may carry
   * secrets), `status` (499 when the client went away first), duration in ms, and the request id the app
   * answered with (`reqId`, as on the app's own lines about the request).
   */
  access(method: string, path: string, status: number, ms: number, reqId: string | undefined): void {
    this.logger.info({ method, path, status, ms, reqId }, 'request');
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    if (this.#batched) this.#batched.flush(done);
    else if (done) process.stdout.write('', () => done());
  }
}
