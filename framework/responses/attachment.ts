import contentDisposition from 'content-disposition';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const COMBINING_MARK = /[\u0300-\u036f]/g;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

/**
 * A `Content-Disposition` value (the `content-disposition` package) that any name fits in: the name's last
 * path segment, sent as `filename*` (UTF-8, percent-encoded) when it has anything but printable ASCII, next
 * to an ASCII `filename` fallback (`été.pdf` -> `ete.pdf`, other characters as `_`). A broken UTF-16 string
 * (a lone surrogate, which `encodeURIComponent` refuses) has that character replaced by U+FFFD. A name with
 * nothing left after its last `/` is sent without one.
 */
export function attachment(filename: string | undefined, type: 'attachment' | 'inline'): string {
  const name = filename === undefined ? '' : String(filename).replace(LONE_SURROGATE, '\ufffd');
  if (!/[^/\\]/.test(name)) return contentDisposition(undefined, { type });
  const fallback = name.normalize('NFKD').replace(COMBINING_MARK, '').replace(NOT_PRINTABLE_ASCII, '_');
  return contentDisposition(name, { type, fallback });
}
