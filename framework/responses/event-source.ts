import { TrellisError } from '../framework-error';
import type { ResponseInit } from '../response';
import { IterableStream } from './iterable-stream';
import { formatEvent, type ServerSentEvent } from './server-sent-event';
import { StreamingResponse } from './streaming';

const PING = ': ping\n\n';

export interface EventSourceInit extends ResponseInit {
  /**
   * Milliseconds between `: ping` comments, which keep proxies from taking a quiet stream for a dead one;
   * 15,000 by default, 0 for none.
   */
  ping?: number;
}

/**
 * A Server-Sent Events stream (`text/event-stream; charset=utf-8`, `Cache-Control: no-cache`,
 * `X-Accel-Buffering: no` so that nginx passes events at once) from an async iterable of events or strings:
 * objects are sent as JSON, multi-line data as several `data:` lines, and an `event` or `id` with a line
 * break is refused (see {@link ServerSentEvent}). A `: ping` comment goes out at once, so the browser's
 * `EventSource` opens without waiting for the first event, then every `ping` ms. Events are asked of the
 * iterable only as fast as the client reads them.
 *
 * When the client goes away, the ping timer stops, the iterable's `return()` is called (an async
 * generator's `finally` runs at its next `yield`) and `signal` aborts: pass it to whatever the generator
 * awaits, since JavaScript cannot interrupt an `await`. An iterable that throws ends the stream (the
 * browser reconnects) and the error is logged with the request id. A reconnecting browser sends the last
 * id it received as `request.headers['last-event-id']`.
 *
 * @example
 * ```ts
 * @Get('/tasks/events') events(@Req() request: Request) {
 *   const after = Number(request.headers['last-event-id'] ?? 0);
 *   const feed = this.feed;
 *   const response = new EventSourceResponse((async function* () {
 *     for await (const change of feed.since(after, { signal: response.signal })) {
 *       yield { event: 'task', id: change.seq, data: change.task };
 *     }
 *   })());
 *   return response;
 * }
 * ```
 */
export class EventSourceResponse extends StreamingResponse {
  constructor(events: AsyncIterable<ServerSentEvent | string>, init: EventSourceInit = {}) {
    const ping = init.ping ?? 15_000;
    if (!(ping >= 0 && ping <= 2 ** 31 - 1)) throw new TrellisError('TRELLIS_ERR_EVENT_STREAM', 'ping', String(ping));
    const { ping: _ping, ...rest } = init;
    super(new EventStream(events, ping), { ...rest, contentType: 'text/event-stream; charset=utf-8' });
    if (!this.headers.has('cache-control')) this.headers.set('cache-control', 'no-cache');
    if (!this.headers.has('x-accel-buffering')) this.headers.set('x-accel-buffering', 'no');
  }
}

/** The events as text, with the pings: the timer runs only between the first read and the end. */
class EventStream extends IterableStream<ServerSentEvent | string> {
  readonly #ping: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(events: AsyncIterable<ServerSentEvent | string>, ping: number) {
    super(events, formatEvent);
    this.#ping = ping;
  }

  protected override started(): void {
    this.push(PING);
    // A ping while bytes still wait in the buffer would tell the client nothing new. The socket, not the
    // timer, keeps the process up.
    if (this.#ping > 0) this.#timer = setInterval(() => this.readableLength === 0 && this.push(PING), this.#ping).unref();
  }

  protected override stopped(): void {
    clearInterval(this.#timer);
  }
}
