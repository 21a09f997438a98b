import { finished, Readable } from 'node:stream';
import type { Request } from '../request';
import { RESPONSE } from '../symbols';
import { Response, type ResponseInit } from '../response';
import { destroyAfterResponse } from './after-response';
import { IterableStream } from './iterable-stream';

/** What a {@link StreamingResponse} sends: a Node `Readable`, or an async iterable (an `async function*`, a web `ReadableStream`) of text and bytes. */
export type StreamSource = Readable | AsyncIterable<string | Uint8Array>;

export interface StreamingResponseInit extends ResponseInit {
  /** The `Content-Type`; without it (and without one in `headers`), `application/octet-stream`. */
  contentType?: string;
}

/**
 * A body sent as it is produced, chunked (no `Content-Length` unless `headers` give one), with backpressure:
 * the next chunk is asked for only when the client has taken the previous ones (an async iterable is asked
 * for a value only while the stream's 16 KiB buffer has room). Strings are sent as UTF-8.
 *
 * When the client goes away, the stream is destroyed: a `Readable` source is destroyed, an async generator is
 * stopped at its next `yield` and its `finally` runs, and `signal` aborts. A generator awaiting something
 * that may take long (the next message of a queue) should pass `response.signal` to it, since JavaScript
 * cannot interrupt an `await`. A source that fails half-way cuts the response (its status is already sent)
 * and the error is logged with the request id. A stream that sends nothing for the app's `sendTimeout` is
 * not cut: only a client that stops reading is.
 *
 * A handler may also return the `Readable` or async iterable itself: it is sent as this response with
 * `application/octet-stream`.
 *
 * @example
 * ```ts
 * @Get('/export.csv') export() {
 *   const rows = this.tasks.all();
 *   return new StreamingResponse((async function* () {
 *     yield 'id,title\n';
 *     for (const task of rows) yield `${task.id},${JSON.stringify(task.title)}\n`;
 *   })(), { contentType: 'text/csv; charset=utf-8' });
 * }
 * ```
 */
export class StreamingResponse extends Response {
  /** Aborted when the stream ends before its source did: the client went away, or the source failed. */
  readonly signal: AbortSignal;
  readonly #stream: Readable;

  constructor(source: StreamSource, init: StreamingResponseInit = {}) {
    const stream = source instanceof Readable ? source : new IterableStream(source);
    super(stream, init);
    if (init.contentType !== undefined) this.headers.set('content-type', init.contentType);
    else if (!this.headers.has('content-type')) this.headers.set('content-type', 'application/octet-stream');
    this.#stream = stream;
    const controller = new AbortController();
    this.signal = controller.signal;
    finished(stream, { writable: false }, (error) => {
      if (error) controller.abort(error);
    });
  }

  /** Ties the stream to the request: a response a middleware replaced still has its source stopped. */
  override prepare(request: Request): void {
    destroyAfterResponse(request[RESPONSE], this.#stream);
  }
}
