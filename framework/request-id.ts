import { randomBytes } from 'node:crypto';
import { TrellisError } from './framework-error';

const SANE = /^[\w.:@=+/-]{1,128}$/;

/**
 * Ids `<6 hex>-<base-36 counter>`: a random prefix and a counter, unique within a process and cheap. Never longer
 * than 12 characters: V8 keeps a concatenation of 13 or more as a rope, which Node's check of every header value
 * (a regular expression) first copies into a flat string, 0.1-0.2 µs per response in a CPU profile. After
 * `rollover - 1` ids (36^5 - 1 by default, the five-digit counters) a new prefix is drawn
 * and the counter starts again.
 */
export function idGenerator(rollover = 36 ** 5): () => string {
  let prefix = newPrefix();
  let counter = 0;
  return () => {
    if (++counter === rollover) {
      prefix = newPrefix();
      counter = 1;
    }
    return prefix + counter.toString(36);
  };
}

function newPrefix(): string {
  return `${randomBytes(3).toString('hex')}-`;
}

const nextId = idGenerator();

/**
 * The id a request is known by: `incoming` (the value of the trusted header, `AppOptions.requestIdHeader`)
 * when it is short and plain, else a new id. Without a trusted header every request gets a new id.
 */
export function requestId(incoming: string | string[] | undefined): string {
  if (typeof incoming === 'string' && SANE.test(incoming)) return incoming;
  return nextId();
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The header (lower-cased, as Node keys them) `AppOptions.requestIdHeader` names, or undefined when it is off
 * (the default). Throws `TRELLIS_ERR_REQUEST_ID_HEADER` for anything but `false` or a header name.
 */
export function trustedIdHeader(option: string | false | undefined): string | undefined {
  if (option === undefined || option === false) return undefined;
  if (typeof option !== 'string' || !TOKEN.test(option)) throw new TrellisError('TRELLIS_ERR_REQUEST_ID_HEADER', JSON.stringify(option) ?? String(option));
  return option.toLowerCase();
}
