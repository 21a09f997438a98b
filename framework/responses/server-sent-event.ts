import { TrellisError } from '../framework-error';

/**
 * One message of an {@link EventSourceResponse}. Every field is optional; a message with `data` is what a
 * browser's `EventSource` dispatches (to `onmessage`, or to `addEventListener(event)` when `event` is set).
 *
 * @example
 * ```ts
 * yield { event: 'progress', id: 42, data: { done: 3, total: 10 } };  // event: progress / id: 42 / data: {"done":3,"total":10}
 * yield { retry: 5_000 };                                              // reconnect after 5 s
 * yield 'plain text';                                                  // data: plain text
 * ```
 */
export interface ServerSentEvent {
  /** A string is sent as is (one `data:` line per line of it); anything else as JSON. */
  data?: unknown;
  /** The event type; no line breaks. */
  event?: string;
  /** The event id, which a reconnecting browser sends back as `Last-Event-ID`; no line breaks or NUL. */
  id?: string | number;
  /** How long a browser waits before reconnecting, in milliseconds: an integer from 0. */
  retry?: number;
  /** A comment line (`: text`), which browsers ignore. */
  comment?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The text of one message: `comment`, `event`, `id`, `retry`, then `data` split into `data:` lines, and the
 * blank line that ends it. An `event` or `id` holding a line break (or an `id` holding NUL, which browsers
 * drop) would forge other fields: it is refused with `TRELLIS_ERR_EVENT_STREAM`, as is a `retry` that is not
 * an integer from 0, rather than altered (an altered id would resume the stream at the wrong place).
 */
export function formatEvent(message: ServerSentEvent | string): string {
  if (typeof message === 'string') return dataLines(message) + '\n';
  const { comment, event, id, retry, data } = message;
  let text = '';
  if (comment !== undefined) for (const line of String(comment).split(LINE_BREAK)) text += `: ${line}\n`;
  if (event !== undefined) text += `event: ${field('event', String(event), /[\r\n]/)}\n`;
  if (id !== undefined) text += `id: ${field('id', String(id), /[\r\n\0]/)}\n`;
  if (retry !== undefined) {
    if (!Number.isSafeInteger(retry) || retry < 0) throw new TrellisError('TRELLIS_ERR_EVENT_STREAM', 'retry', String(retry));
    text += `retry: ${retry}\n`;
  }
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  if (payload !== undefined) text += dataLines(payload);
  return text + '\n';
}

function dataLines(data: string): string {
  let text = '';
  for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return text;
}

function field(name: string, value: string, forbidden: RegExp): string {
  if (forbidden.test(value)) throw new TrellisError('TRELLIS_ERR_EVENT_STREAM', name, JSON.stringify(value));
  return value;
}
