import type { Writable } from 'node:stream';

/** Longest a line waits before it is written. */
export const FLUSH_MS = 20;
const MAX_PENDING = 256;

/**
 * Where the run logger writes: lines are collected and written together at most {@link FLUSH_MS} after the
 * first one (or once 256 are pending), so under load one write carries hundreds of lines and a line costs
 * an array push. (pino's own SonicBoom destination measures each write against its growing buffer, which
 * cost ~2.5 µs per line on the test machine; a write per request costs more than the request.)
 * `process.stdout` keeps the lines in order with the banner and handles TTYs, pipes and files alike.
 */
export class BatchedDestination {
  readonly #out: Pick<Writable, 'write'>;
  #lines: string[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(out: Pick<Writable, 'write'> = process.stdout) {
    this.#out = out;
  }

  write(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length >= MAX_PENDING) this.flush();
    else if (!this.#timer) this.#timer = setTimeout(this.#drain, FLUSH_MS).unref();
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#lines.length) {
      if (done) setImmediate(done);
      return;
    }
    const data = this.#lines.join('');
    this.#lines = [];
    this.#out.write(data, done);
  }

  readonly #drain = () => this.flush();
}
