import { HTTPException } from '../http-exception';
import { DEFAULT_JSON_LIMITS, parseJson } from '../pipeline/body';

/** An incoming message as a gateway reads it: `{"event": "...", "data": ...}`. */
export interface IncomingFrame {
  event: string;
  data: unknown;
}

/** The longest event name an incoming message may give. */
const MAX_EVENT = 200;

/**
 * Reads one incoming frame: JSON text holding an object with a string `event`, held to the limits of a JSON
 * body (nesting, keys, no `__proto__`). Throws an `HTTPException` whose message is the error frame's.
 */
export function readFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): IncomingFrame {
  if (isBinary) throw new HTTPException(400, 'Binary messages are not accepted: send JSON text {"event": ..., "data": ...}');
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  let value: unknown;
  try {
    value = parseJson(bytes, DEFAULT_JSON_LIMITS);
  } catch (error) {
    if (error instanceof HTTPException && error.message === 'Malformed JSON body') throw new HTTPException(400, 'Malformed JSON message');
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw notAMessage();
  const { event, data: payload } = value as Record<string, unknown>;
  if (typeof event !== 'string' || event === '' || event.length > MAX_EVENT) throw notAMessage();
  return { event, data: payload };
}

/** The error frame for `error` (an `HTTPException`'s message and extra fields; anything else a bare 500's). */
export function errorFrame(error: unknown): string {
  if (error instanceof HTTPException) return JSON.stringify({ event: 'error', data: { error: error.message, ...error.extra } });
  return JSON.stringify({ event: 'error', data: { error: 'Internal Server Error' } });
}

function notAMessage(): HTTPException {
  return new HTTPException(400, `A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to ${MAX_EVENT} characters`);
}
