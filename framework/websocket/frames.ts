import { STATUS_CODES } from 'node:http';
import { HTTPException } from '../http-exception';
import type { Response } from '../response';
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

const INTERNAL = JSON.stringify({ event: 'error', data: { error: 'Internal Server Error' } });

/**
 * The error frame for `error`: the body an HTTP answer would have, `{"error": message}` and an `HTTPException`'s
 * extra fields; anything else (or extra fields JSON cannot encode) a bare 500's.
 */
export function errorFrame(error: unknown): string {
  if (!(error instanceof HTTPException)) return INTERNAL;
  try {
    return JSON.stringify({ event: 'error', data: { error: error.message, ...error.extra } });
  } catch {
    return INTERNAL;
  }
}

/**
 * The error frame of a guard's answer to a message (a 401, 403 or 429): its JSON body as the frame's `data`, as
 * the HTTP response would carry it; a body of another type gives `{"error": <reason phrase>}`.
 */
export function refusalFrame(response: Response): string {
  const { body } = response;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json') && (typeof body === 'string' || Buffer.isBuffer(body)) && body.length > 0) {
    return `{"event":"error","data":${typeof body === 'string' ? body : body.toString('utf8')}}`;
  }
  return JSON.stringify({ event: 'error', data: { error: STATUS_CODES[response.status] ?? 'Error' } });
}

function notAMessage(): HTTPException {
  return new HTTPException(400, `A message is a JSON object {"event": "<name>", "data": ...} with an event name of 1 to ${MAX_EVENT} characters`);
}
