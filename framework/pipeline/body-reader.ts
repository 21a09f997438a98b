import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPException } from '../http-exception';
import { BODY, FORM, RESPONSE } from '../symbols';
import { fieldsFromPairs, parseUrlencoded } from '../uploads/fields';
import { Form } from '../uploads/form';
import type { UploadLimits } from '../uploads/limits';
import { parseMultipart, type PartPolicy } from '../uploads/multipart';
import { announcesBody, assertJsonContentType, parseJson, type JsonLimits } from './body';
import { checkParsedJson } from './parsed-json';
import { readBody, type BodyCallback } from './read-body';

/**
 * The one reader of a request body, as Fastify's content-type-parser.js: the argument phase (a `@Body()` or
 * `@UploadedFile()` route) and `request.body()`/`text()`/`json()`/`form()` call it, and it never calls back into
 * the request. It reads the bytes once (read-body.ts: limits, encodings, 400/413/415), dispatches on the content
 * type (JSON, urlencoded, multipart) and keeps what it read in the request's two slots, so every later reader
 * of the same request gets the same outcome.
 */

/** What a JSON read calls back with: an error, or `null` and the parsed value (`undefined` for an empty body). */
export type JsonCallback = (error: unknown, value?: unknown) => void;

/** The read of a body: the callbacks waiting while it runs, then its outcome. */
export type BodyRead = BodyCallback[] | { error: HTTPException | null; bytes?: Buffer };

/** What the reader needs of a request (a `Request` is one): its Node request, its app's limits and two slots. */
export interface BodySource {
  readonly raw: IncomingMessage;
  readonly bodyLimit: number;
  readonly uploadLimits: Readonly<UploadLimits>;
  readonly jsonLimits: Readonly<JsonLimits>;
  /** @internal */
  [BODY]: BodyRead | undefined;
  /** @internal */
  [FORM]: Promise<Form> | undefined;
  /** @internal */
  readonly [RESPONSE]: ServerResponse;
}

/** Calls `done` once with the body's bytes (at most `bodyLimit`, decoded) or its refusal; the body is read once. */
export function readBytes(source: BodySource, done: BodyCallback): void {
  const read = source[BODY];
  if (read === undefined) {
    const waiting: BodyCallback[] = (source[BODY] = [done]);
    readBody(source.raw, source.bodyLimit, (error, bytes) => {
      source[BODY] = { error, bytes };
      for (const callback of waiting) callback(error, bytes);
    });
  } else if (Array.isArray(read)) read.push(done);
  else done(read.error, read.bytes);
}

/** The body's bytes, as a promise. */
export function bytesOf(source: BodySource): Promise<Buffer> {
  return new Promise((resolve, reject) => readBytes(source, (error, bytes) => (error ? reject(error) : resolve(bytes!))));
}

/**
 * Calls `done` once with the body parsed as JSON under the app's limits (and `maxItems` for an array body), whatever
 * its content type. Mounted in an Express app that already ran `express.json()`, the stream is consumed: its
 * result is used, held to the limits the bytes would have been.
 */
export function readJson(source: BodySource, maxItems: number | undefined, done: JsonCallback): void {
  const parsed = source.raw as IncomingMessage & { body?: unknown };
  if (parsed.readableEnded && parsed.body !== undefined) {
    let value: unknown;
    try {
      value = checkParsedJson(parsed.body, source.jsonLimits, maxItems);
    } catch (failure) {
      return done(failure);
    }
    return done(null, value);
  }
  readBytes(source, (error, bytes) => {
    if (error) return done(error);
    let value: unknown;
    try {
      value = parseJson(bytes!, source.jsonLimits, maxItems);
    } catch (failure) {
      return done(failure);
    }
    done(null, value);
  });
}

/**
 * A `@Body()` argument's read: `undefined` for a request with no Content-Type that frames no body (a missing body,
 * not a 415), a 415 for a type other than JSON in UTF-8, else {@link readJson}.
 */
export function readJsonArgument(source: BodySource, maxItems: number, done: JsonCallback): void {
  const headers = source.raw.headers;
  const contentType = headers['content-type'];
  if (!contentType && !announcesBody(headers)) return done(null, undefined);
  try {
    assertJsonContentType(contentType);
  } catch (refusal) {
    return done(refusal);
  }
  readJson(source, maxItems, done);
}

/**
 * The request's form, parsed on first use: multipart (busboy; large files in temporary files) or urlencoded (qs).
 * A request with no body and no content type is an empty form; any other content type is a 400. `policy`, given
 * by routes whose only form access is `@UploadedFile`, refuses any other file as it starts and drops text fields.
 */
export function formOf(source: BodySource, policy?: PartPolicy): Promise<Form> {
  return (source[FORM] ??= parseForm(source, policy));
}

async function parseForm(source: BodySource, policy: PartPolicy | undefined): Promise<Form> {
  const headers = source.raw.headers;
  const type = headers['content-type']?.split(';', 1)[0].trim().toLowerCase();
  if (type === 'multipart/form-data') {
    // Middleware may have read the raw bytes already (request.body()): those are parsed instead of the stream.
    const parts = await parseMultipart(source.raw, source[RESPONSE], source.uploadLimits, policy, () => bytesOf(source));
    return new Form(fieldsFromPairs(parts.fields), parts.files);
  }
  if (type === 'application/x-www-form-urlencoded') {
    return new Form(parseUrlencoded((await bytesOf(source)).toString('utf8')), []);
  }
  if (type === undefined && !announcesBody(headers)) return new Form({}, []);
  throw new HTTPException(400, 'Expected a multipart/form-data or application/x-www-form-urlencoded body');
}
