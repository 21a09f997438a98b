import type { Writable } from 'node:stream';

/** Longest a line waits before it is written. */
export const FLUSH_MS = 20;
/** Pending text that is written at once, without waiting for the timer. */
const MAX_PENDING_BYTES = 64 * 1024;

/**
 * Where the run log writes: lines are collected and written together at most {@link FLUSH_MS} after the
 * first one (or once 64 KiB are pending), so under load one write carries hundreds of lines and a line costs
 * a string concatenation (a write per request costs more than the request).
 * `process.stdout` keeps the lines in order with the banner and handles TTYs, pipes and files alike.
 */
export class BatchedDestination {
  readonly #out: Pick<Writable, 'write'>;
  #pending = '';
  #timer: NodeJS.Timeout | undefined;

  constructor(out: Pick<Writable, 'write'> = process.stdout) {
    this.#out = out;
  }

  write(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= MAX_PENDING_BYTES) this.flush();
    else if (this.#timer === undefined) this.#timer = setTimeout(this.#drain, FLUSH_MS).unref();
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const data = this.#pending;
    if (data === '') {
      if (done) setImmediate(done);
      return;
    }
    this.#pending = '';
    this.#out.write(data, done);
  }

  readonly #drain = () => this.flush();
}
