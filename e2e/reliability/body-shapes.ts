import { probeDuring } from './probe';
import { sleep, timedRequest, type TimedOutcome } from '../support/timed-request';

const MIB = 1024 * 1024;
/** Just under the 1 MiB body limit, so that every shape is read and parsed. */
const SIZE = MIB - 64;

/** Repeats `item` (joined by commas) between `head` and `tail` as often as fits in `SIZE` bytes. */
function fill(head: string, item: (i: number) => string, tail: string): string {
  const parts: string[] = [];
  let length = head.length + tail.length;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (length + next.length + 1 > SIZE) break;
    parts.push(next);
    length += next.length + 1;
  }
  return head + parts.join(',') + tail;
}

/** 62 nested objects inside the outer object and array: the deepest value sits at level 64, the limit. */
const DEEP = '{"a":'.repeat(62) + '0' + '}'.repeat(62);

export interface BodyShape {
  name: string;
  path: string;
  body: () => string;
}

/** The 1 MiB JSON bodies of the hostile phase: objects to `POST /tasks`, arrays to `POST /products/batch`. */
export const BODY_SHAPES: BodyShape[] = [
  { name: 'many keys', path: '/tasks', body: () => fill('{"title":"a",', (i) => `"k${i}":0`, '}') },
  { name: 'many array items', path: '/products/batch', body: () => fill('[', () => '{}', ']') },
  { name: 'long string', path: '/tasks', body: () => `{"title":"${'a'.repeat(SIZE - 20)}"}` },
  { name: 'deep nesting (64)', path: '/tasks', body: () => fill('{"title":"a","n":[', () => DEEP, ']}') },
  // The same, cut to just under the default maxJsonContainers (100,000): the most such a body may carry.
  { name: 'deep nesting (64), 98,954 objects', path: '/tasks', body: () => `{"title":"a","n":[${Array(1_596).fill(DEEP).join(',')}]}` },
  { name: 'many numbers', path: '/tasks', body: () => fill('{"title":"a","n":[', (i) => String(1e15 + i * 7919), ']}') },
];

export interface ShapeFigures {
  name: string;
  path: string;
  bytes: number;
  /** Longest block seen over the runs, in ms (longest probe latency minus the baseline median). */
  blockMs: number;
  /** What each run got: a status, `crashed`, or the connection error (`timeout`, `ECONNRESET`, ...). */
  outcomes: string[];
  /** Runs skipped because the first one already blocked for more than `skipAboveMs`. */
  skipped: number;
}

/** A status (with the body size when over 64 KiB), `crashed (...)`, or the connection error. */
export function describe(outcome: TimedOutcome, serverAlive: boolean): string {
  if (outcome.status) return outcome.bytes > 65_536 ? `${outcome.status} (${(outcome.bytes / 1e6).toFixed(1)} MB body)` : String(outcome.status);
  return serverAlive ? (outcome.error ?? 'no answer') : `crashed (${outcome.error ?? 'no answer'})`;
}

/**
 * Sends each shape `runs` times (one at a time) while a probe measures the event loop; a shape whose run
 * blocked for more than `skipAboveMs` is not repeated, which keeps the phase bounded on the slow code.
 * `ensureServer` is called before each run and returns the port of a live server (restarting a crashed one).
 */
export async function bodyShapes(
  ensureServer: () => Promise<{ port: number; baselineMs: number; alive: () => boolean; discard: () => Promise<void> }>,
  runs = 3,
  timeoutMs = 60_000,
  skipAboveMs = 2_000,
): Promise<ShapeFigures[]> {
  const figures: ShapeFigures[] = [];
  for (const shape of BODY_SHAPES) {
    const body = shape.body();
    const result: ShapeFigures = { name: shape.name, path: shape.path, bytes: Buffer.byteLength(body), blockMs: 0, outcomes: [], skipped: 0 };
    for (let run = 0; run < runs; run++) {
      const server = await ensureServer();
      const shot = { method: 'POST', path: shape.path, body, headers: { 'content-type': 'application/json' } };
      const { result: outcome, longestMs } = await probeDuring(server.port, () => timedRequest(server.port, shot, timeoutMs));
      if (!outcome.status) await sleep(300); // a crashed server's exit is seen a moment after its sockets close
      result.outcomes.push(describe(outcome, server.alive()));
      if (outcome.error === 'timeout') await server.discard();
      result.blockMs = Math.max(result.blockMs, longestMs - server.baselineMs);
      if (longestMs - server.baselineMs > skipAboveMs) {
        result.skipped = runs - run - 1;
        break;
      }
    }
    figures.push(result);
  }
  return figures;
}
