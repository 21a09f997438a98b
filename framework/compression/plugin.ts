import type { Plugin } from '../plugin/plugin';
import { compressor } from './encode';
import { compressionConfig, CompressionSettings, settingsOptions, type CompressionOptions } from './settings';

/**
 * Compresses every response the app writes (routes, errors, docs pages and the OpenAPI document, static files) with
 * brotli or gzip, as the request's `Accept-Encoding` q-values choose (ties go to `encodings` order), as a plug-in
 * named `compression`. Bodies under `threshold` bytes, non-text types, Server-Sent Events, already-encoded bodies,
 * ranges, 204/304 and `Cache-Control: no-transform` go out as they are; `Vary: Accept-Encoding` marks every response
 * it could have compressed. Streams are piped through the compressor with backpressure. Without options it reads
 * config.yaml's `compression:` section (which `trellis run` registers it for); an option that does not fit is
 * `TRELLIS_ERR_COMPRESSION_OPTION`. See docs/reference/compression.md.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { compression } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(compression({ threshold: 1024, encodings: ['br', 'gzip'] }));
 * ```
 */
export function compression(options?: CompressionOptions): Plugin {
  const given = options === undefined ? undefined : compressionConfig(options);
  return {
    name: 'compression',
    register(host) {
      const config = given ?? compressionConfig(settingsOptions(host.settings(CompressionSettings)));
      host.onResponse(compressor(config), { stage: 'encode' });
    },
  };
}
