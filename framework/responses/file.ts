import { ReadStream, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { once } from 'node:events';
import type SendModule from '@fastify/send';
import { HTTPException, defaultMessage } from '../http-exception';
import type { Request } from '../request';
import { RESPONSE } from '../symbols';
import { Response, type ResponseInit } from '../response';
import { destroyAfterResponse } from './after-response';
import { attachment } from './attachment';
import { actionableRange } from './byte-range';

export interface FileResponseOptions extends ResponseInit {
  /**
   * The name the client saves the file as: `Content-Disposition: attachment` with it. Only its last path
   * segment is used; a name with characters outside printable ASCII is sent as RFC 6266's `filename*`
   * (UTF-8, percent-encoded) next to an ASCII `filename` fallback, so no name can break the header.
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
 * A file streamed from disk with backpressure, with `Content-Type` from its extension (unless `headers` name
 * one), `Content-Length`, `Accept-Ranges`, a weak `ETag` and `Last-Modified`. `If-None-Match` and
 * `If-Modified-Since` answer 304, `If-Match` and `If-Unmodified-Since` 412, a single `Range` 206 (416 with
 * `Content-Range: bytes *\/size` when it cannot be met; several ranges, or an invalid `Range` such as
 * `bytes=abc`, get the whole file, as RFC 9110 asks), HEAD no body.
 * Built on `@fastify/send`.
 *
 * The pipeline settles it as soon as the handler returns: the file is looked up and opened then, so
 * middleware sees the real status (200, 206, 304, 404...) and a file removed afterwards is still sent whole.
 * A missing file (or a directory, a FIFO, a device) is a JSON 404 without the path; a file that cannot be
 * read is a 500 whose cause goes to the log. The path is trusted: for paths built from a request, serve a
 * folder with `app.mountStatic` (which refuses traversal, dotfiles and symlinks leading out).
 *
 * @example
 * ```ts
 * @Get('/reports/{id}') report(@Path('id') id: number) {
 *   return new FileResponse(`reports/${id}.pdf`, { filename: 'Rapport trimestriel été.pdf' });
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
      this.headers.set('content-disposition', attachment(filename, disposition ?? 'attachment'));
    }
  }

  override async prepare(request: Request): Promise<void> {
    const { maxAge, immutable } = this.#options;
    const ranged = request.method === 'GET' || request.method === 'HEAD';
    // send would answer an invalid Range with 416: without ranges for this request, it sends the whole file.
    const acceptRanges = ranged && actionableRange(request.headers.range);
    const result = await (send ??= loadSend())(request.raw, '/' + encodeURIComponent(basename(this.path)), {
      root: dirname(this.path),
      dotfiles: 'allow',
      index: false,
      acceptRanges,
      cacheControl: maxAge !== undefined,
      maxAge,
      immutable,
      onFile: regularOnly,
    });
    const { stream } = result;
    if (result.type !== 'file') {
      stream.destroy();
      // A file that exists but cannot be read (a symlink loop, no permission): the cause goes to the log.
      if (result.type === 'error' && result.statusCode >= 500) throw result.metadata.error;
      // A directory is not a file to send: no redirect to its listing.
      const status = result.type === 'directory' ? 404 : result.statusCode;
      // 416 carries `Content-Range: bytes */size`; send's HTML page and the file system path stay out.
      const range = result.headers['Content-Range'];
      const headers = range === undefined ? undefined : { 'content-range': String(range) };
      throw new HTTPException(status, defaultMessage(status), { headers });
    }
    // Opened now (send's stream opens on its own): a file gone since the lookup is a 404 before any header
    // is sent, not a response cut after its 200.
    if (stream instanceof ReadStream) {
      await opened(stream);
      destroyAfterResponse(request[RESPONSE], stream);
    } else {
      stream.destroy(); // 304 and HEAD: send gives an empty stream
    }
    this.status = result.statusCode;
    if (ranged && !acceptRanges) this.headers.set('accept-ranges', 'bytes');
    for (const [name, value] of Object.entries(result.headers)) {
      if (!this.headers.has(name)) this.headers.set(name, String(value));
    }
    this.body = stream instanceof ReadStream ? stream : undefined;
  }
}

// Loaded on the first file sent, not at start (about 15 ms of modules an app serving no file never needs).
let send: typeof SendModule | undefined;
const loadSend = (): typeof SendModule => (require('@fastify/send') as { default: typeof SendModule }).default;

/** A FIFO, a socket or a device is no file to send (opening a FIFO would block a thread of Node's pool). */
function regularOnly(_path: string, stat: Stats): void {
  if (!stat.isFile()) throw new HTTPException(404, defaultMessage(404));
}

/** Waits until send's stream has the file open; a file gone since its lookup is a 404. */
async function opened(stream: ReadStream): Promise<void> {
  try {
    if (stream.errored) throw stream.errored;
    if (stream.pending) await once(stream, 'ready');
  } catch (error) {
    stream.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new HTTPException(404, defaultMessage(404));
    throw error;
  }
}
