/** A content coding the compression plug-in produces. */
export type Encoding = 'br' | 'gzip';

/** The codings it knows, in its default order of preference. */
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

// Accept-Encoding values repeat (browsers and HTTP clients send a handful of fixed strings): each is parsed once.
const CACHE_LIMIT = 256;
const CACHEABLE_LENGTH = 256;

/**
 * Picks the coding of a response by the request's `Accept-Encoding` (RFC 9110 §12.5.3): the coding with the highest
 * q-value the client gives it, ties broken by `preference` (the server's `encodings` order); `undefined` when the
 * client sends no header, accepts none of them (`q=0`), or weighs `identity` above each. `*` stands for every coding
 * the header does not name (`identity` too; unnamed, identity is acceptable but ranks last), and `x-gzip` for
 * `gzip`. Parsing is one linear pass: entries that do not parse (a q-value that is not a number from 0 to 1, a
 * bad token) are skipped, never an error.
 *
 * @example
 * ```ts
 * const pick = negotiator(['br', 'gzip']);
 * pick('gzip, deflate, br');        // 'br'
 * pick('gzip;q=1, br;q=0.5');        // 'gzip'
 * pick('br;q=0, *');                 // 'gzip'
 * pick('identity');                  // undefined
 * ```
 */
export function negotiator(preference: readonly Encoding[]): (header: string | undefined) => Encoding | undefined {
  const cache = new Map<string, Encoding | undefined>();
  return (header) => {
    if (header === undefined) return undefined;
    if (header.length > CACHEABLE_LENGTH) return choose(header, preference);
    if (cache.has(header)) return cache.get(header);
    const chosen = choose(header, preference);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(header, chosen);
    return chosen;
  };
}

function choose(header: string, preference: readonly Encoding[]): Encoding | undefined {
  const weights = parse(header);
  const any = weights.get('*');
  // Unnamed (and no `*`), identity is acceptable but the last choice: `gzip;q=0.5` alone still asks for gzip.
  const identity = weights.get('identity') ?? any ?? 0;
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of preference) {
    const q = weights.get(encoding) ?? any ?? 0;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  // A client that weighs identity above every coding it accepts gets the body as it is (identity;q=0 refuses that).
  return best !== undefined && bestQ >= identity ? best : undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The q-value of each coding the header names (lower-case; `x-gzip` as `gzip`); the highest one when it repeats. */
function parse(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(',', start);
    if (end < 0) end = header.length;
    entry(header.slice(start, end), weights);
    start = end + 1;
  }
  return weights;
}

function entry(text: string, weights: Map<string, number>): void {
  const semicolon = text.indexOf(';');
  let coding = (semicolon < 0 ? text : text.slice(0, semicolon)).trim().toLowerCase();
  if (coding === '' || coding.length > 64 || !TOKEN.test(coding)) return;
  if (coding === 'x-gzip') coding = 'gzip';
  let q = 1;
  if (semicolon >= 0) {
    const parsed = weight(text.slice(semicolon + 1));
    if (parsed === undefined) return;
    q = parsed;
  }
  const known = weights.get(coding);
  if (known === undefined || q > known) weights.set(coding, q);
}

// `q=0.8` among the parameters (the others are ignored); undefined when a `q` parameter is not a q-value.
function weight(parameters: string): number | undefined {
  let q = 1;
  for (const parameter of parameters.split(';')) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'q') continue;
    const value = parameter.slice(equals + 1).trim();
    if (value.length > 5 || !QVALUE.test(value)) return undefined;
    q = Number(value);
  }
  return q;
}
