import { Readable } from 'node:stream';

/**
 * A `Readable` over an async iterable, asking for the next value only when the reader has room (what
 * `Readable.from` does), with two differences that matter when a client goes away: `destroy()` completes at
 * once instead of waiting for a pending `next()` (a generator waiting on a quiet queue would hold the
 * stream open, and with it the `signal` of its response), and it stops the iterable with `return()`, so an
 * async generator's `finally` runs (at its next `yield`) without an error thrown into it. Nothing starts
 * until the stream is first read: a response that is never sent leaves its generator unstarted.
 *
 * Each value goes through `encode` (by default, pushed as is: text as UTF-8, bytes as they are; anything
 * else fails the stream). Subclasses add what happens when reading starts and stops.
 */
export class IterableStream<T> extends Readable {
  readonly #iterable: AsyncIterable<T>;
  readonly #encode: (value: T) => string | Uint8Array;
  #iterator: AsyncIterator<T> | undefined;
  #pulling = false;
  #done = false;
  #stopped = false;

  constructor(iterable: AsyncIterable<T>, encode: (value: T) => string | Uint8Array = (value) => value as string | Uint8Array) {
    super();
    this.#iterable = iterable;
    this.#encode = encode;
  }

  /** Called once, on the first read, before the first value is asked for. */
  protected started(): void {}

  /** Called once when the stream ends or is destroyed after it started. */
  protected stopped(): void {}

  override _read(): void {
    if (this.#iterator === undefined) {
      this.#iterator = this.#iterable[Symbol.asyncIterator]();
      this.started();
    }
    if (!this.#pulling) void this.#pull();
  }

  async #pull(): Promise<void> {
    this.#pulling = true;
    try {
      for (;;) {
        const { value, done } = await this.#iterator!.next();
        if (this.destroyed) return;
        if (done) {
          this.#done = true;
          this.#stop();
          this.push(null);
          return;
        }
        if (!this.push(this.#encode(value))) return;
      }
    } catch (error) {
      this.destroy(error as Error);
    } finally {
      this.#pulling = false;
    }
  }

  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.stopped();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#iterator !== undefined) this.#stop();
    if (!this.#done) {
      this.#done = true;
      try {
        // Also when never read: a `Readable` given as the iterable is destroyed. An async generator queues
        // the call behind a pending `next()`.
        const iterator = this.#iterator ?? this.#iterable[Symbol.asyncIterator]();
        Promise.resolve(iterator.return?.()).catch(() => {});
      } catch {
        // An iterator that cannot be stopped has nothing left to stop.
      }
    }
    callback(error);
  }
}
