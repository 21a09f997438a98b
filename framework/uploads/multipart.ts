import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Busboy, BusboyConfig } from 'busboy';
import { HTTPException } from '../http-exception';
import type { FormFile } from './form';
import type { UploadLimits } from './limits';
import { removeAfterResponse, Spool } from './spool';
import { StoredFile } from './stored-file';

export interface MultipartParts {
  fields: Array<[string, string]>;
  files: FormFile[];
}

/** Which parts a route can use; the others are refused as they start, or dropped, never kept. */
export interface PartPolicy {
  /** The only fields that may carry files, with how many each; any field and number (within limits) when absent. */
  files?: ReadonlyMap<string, number>;
  /** `false` when nothing can read text fields: they are counted against the limits and dropped. */
  keepFields: boolean;
}

const ANY: PartPolicy = { keepFields: true };

// Loaded on the first multipart body, not at start.
let busboy: ((config: BusboyConfig) => Busboy) | undefined;

/**
 * Streams a multipart body through busboy: text fields into memory, each file into a {@link Spool} (memory up
 * to `limits.memorySize`, then a temporary file removed once the response is sent). The first problem (a limit,
 * a file the policy refuses, a malformed or truncated body) rejects with an `HTTPException`, stops reading and
 * removes every temporary file. A body something already started reading (middleware called `request.body()`)
 * is parsed from `readBytes` instead of the stream.
 */
export function parseMultipart(
  req: IncomingMessage,
  res: ServerResponse,
  limits: UploadLimits,
  given: PartPolicy | undefined,
  readBytes: () => Promise<Buffer>,
): Promise<MultipartParts> {
  const policy = given ?? ANY;
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    const fieldSize = Math.min(limits.fieldSize, limits.fieldsSize);
    try {
      parser = (busboy ??= require('busboy') as (config: BusboyConfig) => Busboy)({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          // busboy reports reaching a size limit, not passing it: one more byte makes the limit inclusive.
          fileSize: limits.fileSize + 1,
          files: limits.files,
          fields: limits.fields,
          fieldSize: fieldSize + 1,
          parts: limits.files + limits.fields,
        },
      });
    } catch {
      reject(new HTTPException(400, 'Multipart body has no boundary'));
      return;
    }

    const fields: Array<[string, string]> = [];
    const files: Array<StoredFile | undefined> = [];
    const spools: Spool[] = [];
    const perField = new Map<string, number>();
    let fieldBytes = 0;
    let writing = 0;
    let parsed = false;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.off('error', aborted);
      req.resume(); // discard the rest so the response can be sent
      for (const spool of spools) spool.destroy();
      // Not while busboy is emitting: it touches its state right after a 'limit' event.
      setImmediate(() => parser.destroy());
      reject(error);
    };
    const aborted = () => fail(new HTTPException(400, 'Request aborted'));
    const finish = () => {
      if (settled || !parsed || writing > 0) return;
      settled = true;
      req.off('error', aborted);
      resolve({ fields, files: files.filter((file) => file !== undefined) });
    };

    parser.on('file', (name, stream, info) => {
      stream.on('error', () => {}); // the parser reports the same problem
      if (!name) return fail(new HTTPException(400, 'A multipart part has no field name'));
      const count = (perField.get(name) ?? 0) + 1;
      perField.set(name, count);
      const allowed = policy.files ? (policy.files.get(name) ?? 0) : Infinity;
      if (allowed === 0) return fail(new HTTPException(400, `Unexpected file field ${quote(name)}`));
      if (count > allowed) return fail(new HTTPException(400, `Field ${quote(name)} takes ${allowed === 1 ? 'one file' : `${allowed} files`}, got ${count}`));

      const spool = new Spool(limits.memorySize);
      spools.push(spool);
      removeAfterResponse(res, spool);
      const slot = files.push(undefined) - 1;
      writing++;
      stream.on('limit', () => fail(new HTTPException(413, `File is larger than ${limits.fileSize} bytes`)));
      spool.on('error', fail);
      spool.on('finish', () => {
        writing--;
        // A file input left empty in a browser form sends `filename=""` and no content: no file.
        if (!stream.truncated && (info.filename || spool.size > 0)) {
          files[slot] = new StoredFile(name, info.filename ?? '', info.mimeType, spool.size, spool.buffer, spool.path);
        }
        finish();
      });
      stream.pipe(spool);
    });
    parser.on('field', (name, value, info) => {
      if (!name) return fail(new HTTPException(400, 'A multipart part has no field name'));
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated && fieldSize === limits.fieldSize) {
        return fail(new HTTPException(413, `Field value is larger than ${limits.fieldSize} bytes`));
      }
      if (info.valueTruncated || fieldBytes > limits.fieldsSize) {
        return fail(new HTTPException(413, `Form fields are larger than ${limits.fieldsSize} bytes in all`));
      }
      if (policy.keepFields) fields.push([name, value]);
    });
    parser.on('filesLimit', () => fail(new HTTPException(413, `Too many files: at most ${limits.files}`)));
    parser.on('fieldsLimit', () => fail(new HTTPException(413, `Too many fields: at most ${limits.fields}`)));
    parser.on('partsLimit', () => fail(new HTTPException(413, `Too many parts: at most ${limits.files + limits.fields}`)));
    parser.on('error', () => fail(new HTTPException(400, 'Malformed multipart body')));
    parser.on('close', () => {
      parsed = true;
      finish();
    });

    req.on('error', aborted);
    if (req.readableDidRead) readBytes().then((bytes) => parser.end(bytes), fail);
    else req.pipe(parser);
  });
}

/** A client-chosen name, shortened for an error message. */
function quote(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}...` : name);
}
