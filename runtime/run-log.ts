import type { Logger } from '../framework/index';
import { BatchedDestination } from './log-destination';

/**
 * The `trellis run` log: JSON lines on stdout in pino's shape (`level`, epoch `time`, fields, `msg`), written
 * in batches off the request path (see {@link BatchedDestination}). An access line is one template string:
 * building it with a general-purpose logger cost about a tenth of a request.
 *
 * @example
 * ```ts
 * const log = new RunLog();
 * log.access('GET', '/tasks/1', 200, 0.42, 'b2f…');
 * // {"level":30,"time":1732238400000,"method":"GET","path":"/tasks/1","status":200,"ms":0.42,"id":"b2f…","msg":"request"}
 * ```
 */
export class RunLog {
  readonly #out: BatchedDestination;

  constructor(out: BatchedDestination = new BatchedDestination()) {
    this.#out = out;
  }

  /**
   * One request: `method` as Node's parser read it (one of its known tokens: nothing to escape), `path`
   * without the query string (which may carry secrets), `status` (499 when the client went away first),
   * duration in ms, and the request id the app answered with.
   */
  access(method: string, path: string, status: number, ms: number, id: string | undefined): void {
    const idField = id === undefined ? '' : `,"id":${jsonString(id)}`;
    this.#out.write(
      `{"level":30,"time":${Date.now()},"method":"${method}","path":${jsonString(path)},"status":${status},"ms":${ms}${idField},"msg":"request"}\n`,
    );
  }

  /** An unexpected error with its stack (`err`: type, message, stack, code, cause, as pino's serializer has it). */
  error(message: string, error: unknown): void {
    this.#out.write(`${JSON.stringify({ level: 50, time: Date.now(), err: serializeError(error), msg: message })}\n`);
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    this.#out.flush(done);
  }

  /** The app's logger for unexpected errors. */
  get appLogger(): Logger {
    return { error: (message, error) => this.error(message, error) };
  }
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `text` as a JSON string; most paths and ids need no escaping, which a test finds faster than `JSON.stringify`. */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  cause?: SerializedError;
}

function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const result: SerializedError = { type: error.constructor?.name || error.name, message: error.message, stack: error.stack };
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' || typeof code === 'number') result.code = code;
  if (error.cause !== undefined && depth < 5) result.cause = serializeError(error.cause, depth + 1);
  return result;
}
