import busboy, { type Busboy } from 'busboy';
import { HTTPException } from '../http-exception';
import type { Request } from '../request';
import type { FormFile } from './form';
import type { UploadLimits } from './limits';

export interface MultipartParts {
  fields: Array<[string, string]>;
  files: FormFile[];
}

/**
 * Streams a multipart body through busboy into memory. The first problem (a limit, an unexpected file
 * field, a malformed or truncated body) rejects with an `HTTPException` and stops reading.
 * `expected`, when given, lists the only fields that may carry files.
 */
export function parseMultipart(request: Request, limits: UploadLimits, expected?: ReadonlySet<string>): Promise<MultipartParts> {
  const req = request.raw;
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          // busboy reports reaching a size limit, not passing it: one more byte makes the limit inclusive.
          fileSize: limits.fileSize + 1,
          files: limits.files,
          fields: limits.fields,
          fieldSize: limits.fieldSize + 1,
          parts: limits.files + limits.fields,
        },
      });
    } catch {
      reject(new HTTPException(400, 'Multipart body has no boundary'));
      return;
    }

    const parts: MultipartParts = { fields: [], files: [] };
    let settled = false;
    const fail = (error: HTTPException) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.off('error', aborted);
      req.resume(); // discard the rest so the response can be sent
      // Not while busboy is emitting: it touches its state right after a 'limit' event.
      setImmediate(() => parser.destroy());
      reject(error);
    };
    const aborted = () => fail(new HTTPException(400, 'Request aborted'));

    parser.on('file', (name, stream, info) => {
      stream.on('error', () => {}); // the parser reports the same problem
      if (!name) return fail(new HTTPException(400, 'A multipart part has no field name'));
      if (expected && !expected.has(name)) return fail(new HTTPException(400, `Unexpected file field ${quote(name)}`));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('limit', () => fail(new HTTPException(413, `File is larger than ${limits.fileSize} bytes`)));
      stream.on('end', () => {
        // A file input left empty in a browser form sends `filename=""` and no content: no file.
        if (settled || stream.truncated || (!info.filename && size === 0)) return;
        const buffer = Buffer.concat(chunks, size);
        parts.files.push({ fieldname: name, filename: info.filename ?? '', mimetype: info.mimeType, size, buffer });
      });
    });
    parser.on('field', (name, value, info) => {
      if (!name) return fail(new HTTPException(400, 'A multipart part has no field name'));
      if (info.valueTruncated) return fail(new HTTPException(413, `Field value is larger than ${limits.fieldSize} bytes`));
      parts.fields.push([name, value]);
    });
    parser.on('filesLimit', () => fail(new HTTPException(413, `Too many files: at most ${limits.files}`)));
    parser.on('fieldsLimit', () => fail(new HTTPException(413, `Too many fields: at most ${limits.fields}`)));
    parser.on('partsLimit', () => fail(new HTTPException(413, `Too many parts: at most ${limits.files + limits.fields}`)));
    parser.on('error', () => fail(new HTTPException(400, 'Malformed multipart body')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      req.off('error', aborted);
      resolve(parts);
    });

    req.on('error', aborted);
    // Middleware may have read the raw bytes already (request.body()): parse those instead of the stream.
    if (req.readableDidRead) request.body().then((bytes) => parser.end(bytes), fail);
    else req.pipe(parser);
  });
}

/** A client-chosen name, shortened for an error message. */
function quote(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}...` : name);
}
