// A short allow-list in the spirit of the `compressible` package (mime-db's flags), which is not a dependency: text,
// and the structured-text subtypes (`application/json`, `application/problem+json`, `image/svg+xml`,
// `application/javascript`, `application/x-yaml`, `application/wasm`). Images, audio, video, archives, fonts and
// `application/octet-stream` are mostly compressed already. Server-Sent Events and NDJSON are live streams: a
// compressor would hold their events back until its buffer fills.
const STRUCTURED = /(?:^|[+.-])(?:json|xml|yaml|javascript|ecmascript)$/;
const LIVE = new Set(['text/event-stream', 'application/x-ndjson', 'application/ndjson']);

/**
 * Whether a response of this `Content-Type` is worth compressing: `text/*` (Server-Sent Events excepted), JSON,
 * XML, YAML, JavaScript (and their `+json`/`+xml` kinds), WebAssembly. Parameters (`; charset=utf-8`) and case do
 * not matter; no content type, or one over 200 characters, is not compressible.
 *
 * @example
 * ```ts
 * isCompressible('application/json; charset=utf-8'); // true
 * isCompressible('image/png');                       // false
 * isCompressible('text/event-stream');               // false
 * ```
 */
export function isCompressible(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.length > 200) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  const slash = type.indexOf('/');
  if (slash <= 0 || LIVE.has(type)) return false;
  if (type.startsWith('text/')) return true;
  const subtype = type.slice(slash + 1);
  return subtype === 'wasm' || STRUCTURED.test(subtype);
}
