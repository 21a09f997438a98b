import { createLogger, deferredLogger, type Logger } from '../framework/internal';
import { BatchedDestination } from './log-destination';

// What a JSON string needs escaped (pino's rule); anything else is written between quotes as it is.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const jsonString = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);
// pino's numeric level of `info`, and of the logger's current level (`levelVal`).
const INFO = 30;

/**
 * The log of `trellis run` and of a built app: one pino logger (the framework's `createLogger`) for the access
 * lines, the app's unexpected errors and what handlers write to `request.log`. On a terminal its lines are
 * pino-pretty's; otherwise JSON lines (`level`, epoch `time`, fields, `msg`) written in batches off the request
 * path by a {@link BatchedDestination}. The access line, written once per request, is built by hand in exactly
 * pino's JSON (same keys, order and escaping) and written to the same destination, in order with pino's own
 * lines: 0.7 µs a line instead of pino's 1.7 µs (`bench/micro/access-line.js`).
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
  #pino: Logger | undefined;

  constructor(pretty = process.stdout.isTTY === true, out: BatchedDestination = new BatchedDestination()) {
    const batched = (this.#batched = pretty ? undefined : out);
    // Made on the first line other than an access line (an error, a request.log line, a level set): a start, and
    // requests that log nothing else, never load pino (some 20 ms of a start).
    this.logger = deferredLogger(() => (this.#pino = createLogger({ pretty, destination: batched })));
  }

  /**
   * One request: `method` as Node's parser read it, `path` without the query string (which may carry
   * secrets), `status` (499 when the client went away first), duration in ms, and the request id the app
   * answered with (`reqId`, as on the app's own lines about the request).
   */
  access(method: string, path: string, status: number, ms: number, reqId: string | undefined): void {
    const batched = this.#batched;
    if (!batched) return void this.logger.info({ method, path, status, ms, reqId }, 'request');
    // Until pino is made, the level is the one it will be made with: info.
    if (this.#pino && (this.#pino as Logger & { levelVal: number }).levelVal > INFO) return;
    // pino leaves out an undefined field, and writes a number as JavaScript prints it.
    const id = reqId === undefined ? '' : `,"reqId":${jsonString(reqId)}`;
    // A method is an HTTP token (letters, as Node's parser takes them): nothing in it to escape.
    batched.write(`{"level":30,"time":${Date.now()},"method":"${method}","path":${jsonString(path)},"status":${status},"ms":${ms}${id},"msg":"request"}\n`);
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    if (this.#batched) this.#batched.flush(done);
    else if (done) process.stdout.write('', () => done());
  }
}
