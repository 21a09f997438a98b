import { pipeline, Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { varyWith } from '../core/vary';
import type { ResponseHook } from '../plugin/plugin';
import type { Request } from '../request';
import type { Response } from '../response';
import { isCompressible } from './compressible';
import { negotiator, type Encoding } from './negotiate';
import type { CompressionConfig } from './settings';

// Bodies up to this size are compressed at once with zlib's synchronous functions (the bytes and their length are
// known before the headers go out); larger ones through a zlib stream, whose work runs on libuv's threadpool instead
// of blocking the event loop. At 64 KB the synchronous call costs about 0.5-1 ms (bench/compression-levels.js),
// below the wall time of a stream's round trips through the threadpool; above it the stream wins.
const SYNC_LIMIT = 64 * 1024;

/**
 * The compression plug-in's response hook (`host.onResponse(hook, { stage: 'encode' })`): it sees every response
 * last, and encodes the body with the coding the request's `Accept-Encoding` picks. What it skips, and why, is in
 * docs/reference/compression.md.
 *
 * @example
 * ```ts
 * host.onResponse(compressor(compressionConfig({})), { stage: 'encode' });
 * ```
 */
export function compressor(config: CompressionConfig): ResponseHook {
  const negotiate = negotiator(config.encodings);
  const gzipOptions = { level: config.gzipLevel };
  const brotliParams = { [zlib.constants.BROTLI_PARAM_QUALITY]: config.brotliQuality };
  const brotliOptions = (size: number | undefined) => ({
    params: size === undefined ? brotliParams : { ...brotliParams, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
  });

  const compressSync = (encoding: Encoding, body: string | Buffer, size: number): Buffer =>
    encoding === 'gzip' ? zlib.gzipSync(body, gzipOptions) : zlib.brotliCompressSync(body, brotliOptions(size));
  const compressStream = (encoding: Encoding, size: number | undefined): Transform =>
    encoding === 'gzip' ? zlib.createGzip(gzipOptions) : zlib.createBrotliCompress(brotliOptions(size));

  return (request: Request, response: Response): void => {
    const { status, body, headers } = response;
    const head = request.method === 'HEAD';
    if ((body === undefined && !head) || status < 200 || status === 204 || status === 206 || status === 304) return;
    if (!isCompressible(headers.get('content-type'))) return;
    if (headers.has('content-range') || request.headers.range !== undefined) return;
    const coded = headers.get('content-encoding');
    if (coded !== undefined && coded.trim().toLowerCase() !== 'identity') return;
    if (noTransform(headers.get('cache-control'))) return;
    const stream = body instanceof Readable ? body : undefined;
    const size =
      body === undefined || stream ? declaredLength(headers.get('content-length')) : typeof body === 'string' ? Buffer.byteLength(body) : (body as Buffer).length;
    if (size !== undefined ? size < config.threshold : body === undefined) return;

    // Compressible at this size: the answer depends on Accept-Encoding from here on, whatever this client sent.
    varyOnAcceptEncoding(response);
    const encoding = negotiate(acceptEncoding(request.headers['accept-encoding']));
    if (encoding === undefined) return;
    headers.set('content-encoding', encoding);
    headers.delete('content-length');
    // Byte ranges count the identity representation's bytes (as nginx's gzip does, the header goes).
    headers.delete('accept-ranges');
    weakenETag(response);

    if (head) {
      // The headers GET would send, without compressing a body nobody receives; its length is not known without
      // that work, so none is sent (RFC 9110 §9.3.2 allows it). An empty stream keeps the writer from counting one.
      stream?.destroy();
      response.body = Readable.from([]);
      return;
    }
    if (stream || size! > SYNC_LIMIT) {
      const encoder = compressStream(encoding, size);
      // The writer pipes `encoder` to the client; a client gone (or an encoder error) destroys `encoder`, and this
      // pipeline then destroys the source (a generator's `finally` runs). Failures are reported by the writer.
      pipeline(stream ?? Readable.from([body as string | Buffer]), encoder, () => {});
      response.body = encoder;
      return;
    }
    const compressed = compressSync(encoding, body as string | Buffer, size!);
    response.body = compressed;
    headers.set('content-length', String(compressed.length));
  };
}

function acceptEncoding(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

// A stream's size, when the response declares it (a static file's Content-Length).
function declaredLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value);
}

function noTransform(cacheControl: string | undefined): boolean {
  return cacheControl !== undefined && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl);
}

function varyOnAcceptEncoding(response: Response): void {
  const vary = varyWith(response.headers.get('vary'), 'Accept-Encoding');
  if (vary !== undefined) response.headers.set('vary', vary);
}

// The compressed bytes differ from the identity ones: a strong validator must not name both (RFC 9110 §8.8.3).
// Weakened as nginx does; Apache's `-gzip` suffix breaks If-None-Match, since the handler knows only its own ETag.
function weakenETag(response: Response): void {
  const etag = response.headers.get('etag');
  if (etag !== undefined && etag.startsWith('"')) response.headers.set('etag', `W/${etag}`);
}
