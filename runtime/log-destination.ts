import type { Writable } from 'node:stream';

/** Longest a line waits before it is written. */
export const FLUSH_MS = 20;
/** Bytes collected before they are written at once, without waiting for the timer. */
const BATCH_BYTES = 64 * 1024;

/**
 * Where the run log's pino logger writes: lines are encoded into one buffer and written together at most
 * {@link FLUSH_MS} after the first one (or when the next line might not fit in 64 KiB), so under load one write
 * carries hundreds of lines (a write per request costs more than the request).
 * Lines are encoded at once rather than kept as strings until the write: strings that live for 20 ms survive
 * young-generation collections, which then grow (measured: +12 MB of RSS under load, and slower requests).
 * `process.stdout` keeps the lines in order with the banner and handles TTYs, pipes and files alike.
 * pino's own asynchronous destination (sonic-boom, `minLength` 8 KiB, `periodicFlush` 20 ms) costs 3 µs more a
 * line: it appends each line to a pending string and measures that string's UTF-8 length on every write
 * (`bench/micro/access-line.js`).
 */
export class BatchedDestination {
  readonly #out: Pick<Writable, 'write'>;
  #batch = Buffer.allocUnsafe(BATCH_BYTES);
  #used = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(out: Pick<Writable, 'write'> = process.stdout) {
    this.#out = out;
  }

  write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    if (this.#used + line.length * 3 > BATCH_BYTES) {
      this.flush();
      if (line.length * 3 > BATCH_BYTES) {
        this.#out.write(line); // a long error line, after the ones before it
        return;
      }
    }
    this.#used += this.#batch.write(line, this.#used);
    if (this.#timer === undefined) this.#timer = setTimeout(this.#drain, FLUSH_MS).unref();
  }

  /** Writes what is pending now; `done` runs once the output has taken it. */
  flush(done?: (error?: Error | null) => void): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0) {
      if (done) setImmediate(done);
      return;
    }
    const data = this.#batch.subarray(0, this.#used);
    // A new buffer for the next lines: the output may still hold this one (an asynchronous pipe).
    this.#batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.#used = 0;
    this.#out.write(data, done);
  }

  readonly #drain = () => this.flush();
}
