import { STATUS_CODES } from 'node:http';
/**
 * An error that becomes an HTTP response: `{ "error": message }` with `status`.
 *
 * @example
 * ```ts
 * @Delete('/{id}') remove(@Path('id') id: number) {
 *   if (!this.tasks.has(id)) throw new HTTPException(404, 'Task not found');
 *   this.tasks.delete(id);
 * }
 * ```
 */
export class HTTPException extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Extra fields merged into the JSON body next to `error`. */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    status: number,
    message?: string,
    options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message ?? defaultMessage(status));
    this.name = 'HTTPException';
    this.status = status;
    this.headers = options.headers ?? {};
    this.extra = options.extra;
  }
}

/** The reason phrase for a status, from Node's table (`http.STATUS_CODES`). */
export function defaultMessage(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Detail of one failed check in a 422 response.
 *
 * @example
 * ```ts
 * const detail: ValidationDetail = { location: 'query', field: 'limit', message: 'limit must not be greater than 100' };
 * ```
 */
export interface ValidationDetail {
  location: 'path' | 'query' | 'header' | 'body';
  field: string;
  message: string;
}

/** The most details a 422 body lists; `omitted_details` counts the rest. */
export const MAX_VALIDATION_DETAILS = 100;
/** The most bytes of a 422 body: every `field` and `message` is cut to a bounded length, and details beyond this are omitted. */
export const MAX_VALIDATION_BODY_BYTES = 64 * 1024;
const MAX_FIELD = 200;
const MAX_MESSAGE = 400;
// `{"error":"Validation failed","details":[],"omitted_details":NNNNNNNNNNNNNNNN}` and some slack.
const ENVELOPE_BYTES = 128;

/**
 * The one validation failure: 422 `{ "error": "Validation failed", "details": [{ location, field, message }] }`.
 * The body lists at most the first {@link MAX_VALIDATION_DETAILS} details and stays under 64 KiB (a long
 * field path or message is cut, ending in `…`); when some are left out, `omitted_details` says how many.
 *
 * @example
 * ```ts
 * throw new RequestValidationError([{ location: 'body', field: 'email', message: 'email is taken' }]);
 * ```
 */
export class RequestValidationError extends HTTPException {
  /** The details the body lists (the first ones, bounded). */
  readonly details: ValidationDetail[];
  /** How many details were left out of the body; 0 when none. */
  readonly omitted: number;

  constructor(details: ValidationDetail[]) {
    const listed = boundedDetails(details);
    const omitted = details.length - listed.length;
    super(422, 'Validation failed', { extra: omitted ? { details: listed, omitted_details: omitted } : { details: listed } });
    this.name = 'RequestValidationError';
    this.details = listed;
    this.omitted = omitted;
  }
}

function boundedDetails(details: ValidationDetail[]): ValidationDetail[] {
  const bounded = details.slice(0, MAX_VALIDATION_DETAILS).map((detail) => ({
    location: detail.location,
    field: cut(detail.field, MAX_FIELD),
    message: cut(detail.message, MAX_MESSAGE),
  }));
  // JSON escapes can make a character (a UTF-16 unit) six bytes. When even that many fit, all are listed;
  // only then is what will be sent measured, detail by detail (a few short details are never stringified twice).
  let most = ENVELOPE_BYTES;
  for (const detail of bounded) most += DETAIL_BYTES + 6 * (detail.location.length + detail.field.length + detail.message.length);
  if (most <= MAX_VALIDATION_BODY_BYTES) return bounded;
  const listed: ValidationDetail[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const detail of bounded) {
    bytes += Buffer.byteLength(JSON.stringify(detail)) + 1;
    if (bytes > MAX_VALIDATION_BODY_BYTES) break;
    listed.push(detail);
  }
  return listed;
}

// The bytes of a detail besides its three values: `{"location":"","field":"","message":""},`.
const DETAIL_BYTES = 40;

function cut(text: string, max: number): string {
  if (typeof text !== 'string') text = String(text);
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/[\ud800-\udbff]$/, '')}…`;
}

/**
 * The framework's own 422 for a request's parameters and body. It is an answer, not a bug, and nothing reads
 * its stack: capturing one was about 8 % of the CPU time of an invalid request, so it is built without.
 */
export function requestValidationFailure(details: ValidationDetail[]): RequestValidationError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new RequestValidationError(details);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
