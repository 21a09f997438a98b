import { basename, dirname, resolve } from 'node:path';
import send from '@fastify/send';
import contentDisposition from 'content-disposition';
import { HTTPException, defaultMessage } from '../http-exception';
import type { Request } from '../request';
import { Response, type ResponseInit } from '../response';

export interface FileResponseOptions extends ResponseInit {
  /**
   * The name the client saves the file as: `Content-Disposition: attachment` with it (non-ASCII names
   * encoded as RFC 6266 says, with an ASCII fallback).
   */
  filename?: string;
  /** `inline` to let the browser show the file; `attachment` (the default when `filename` is given) to download it. */
  disposition?: 'attachment' | 'inline';
  /** `Cache-Control: public, max-age` in milliseconds or as a string (`'1d'`); no `Cache-Control` by default. */
  maxAge?: number | string;
  /** Adds `immutable` to `Cache-Control` (with `maxAge`). */
  immutable?: boolean;
}

/**
 * A file streamed from disk, with `Content-Type` from its extension, `Content-Length`, `ETag` and
 * `Last-Modified`; conditional requests answer 304 (or 412), `Range` requests 206 (or 416), HEAD no body.
 * The file is opened when the pipeline settles the response, so middleware sees its real status; a missing
 * file is a JSON 404. Built on `@fastify/send`.
 *
 * @example
 * ```ts
 * @Get('/reports/{id}') report(@Path('id') id: string) {
 *   return new FileResponse(`reports/${this.reports.fileOf(id)}`, { filename: 'Quarterly report.pdf' });
 * }
 * ```
 */
export class FileResponse extends Response {
  /** The absolute path of the file. */
  readonly path: string;
  readonly #options: FileResponseOptions;

  constructor(path: string, options: FileResponseOptions = {}) {
    super(undefined, options);
    this.path = resolve(path);
    this.#options = options;
    const { filename, disposition } = options;
    if (filename !== undefined || disposition !== undefined) {
      this.headers.set('content-disposition', contentDisposition(filename, { type: disposition ?? 'attachment' }));
    }
  }

  override async prepare(request: Request): Promise<void> {
    const { maxAge, immutable } = this.#options;
    const result = await send(request.raw, '/' + encodeURIComponent(basename(this.path)), {
      root: dirname(this.path),
      dotfiles: 'allow',
      index: false,
      cacheControl: maxAge !== undefined,
      maxAge,
      immutable,
    });
    if (result.type !== 'file') {
      result.stream.destroy();
      // A directory is not a file to send: no redirect to its listing.
      const status = result.type === 'directory' ? 404 : result.statusCode;
      // 416 carries `Content-Range: bytes */size`; the error's page and the file system path stay out.
      const range = result.headers['Content-Range'];
      const headers = range === undefined ? undefined : { 'content-range': String(range) };
      throw new HTTPException(status, defaultMessage(status), { headers });
    }
    this.status = result.statusCode;
    for (const [name, value] of Object.entries(result.headers)) {
      if (!this.headers.has(name)) this.headers.set(name, String(value));
    }
    this.body = result.stream;
  }
}
