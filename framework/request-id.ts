import { randomBytes } from 'node:crypto';

const SANE = /^[\w.:@=+/-]{1,128}$/;

/**
 * Ids `<6 hex>-<base-36 counter>`: a random prefix and a counter, unique within a process and cheap. Never longer
 * than 12 characters: V8 keeps a concatenation of 13 or more as a rope, which Node's check of every header value
 * (a regular expression) first copies into a flat string, 0.1-0.2 µs per response (bench/ISSUE-15-RESULTS.md,
 * "Sixth pass"). After `rollover - 1` ids (36^5 - 1 by default, the five-digit counters) a new prefix is drawn
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

/** The caller's `X-Request-Id` when it is short and plain, else a new id. */
export function requestId(incoming: string | string[] | undefined): string {
  if (typeof incoming === 'string' && SANE.test(incoming)) return incoming;
  return nextId();
}
