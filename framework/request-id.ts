import { randomBytes } from 'node:crypto';

const SANE = /^[\w.:@=+/-]{1,128}$/;
// A random per-process prefix and a counter: unique, cheap, and sortable within one process.
const prefix = randomBytes(4).toString('hex');
let counter = 0;

/** The caller's `X-Request-Id` when it is short and plain, else a new id. */
export function requestId(incoming: string | string[] | undefined): string {
  if (typeof incoming === 'string' && SANE.test(incoming)) return incoming;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}-${counter.toString(36)}`;
}
