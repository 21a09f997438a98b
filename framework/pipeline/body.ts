import type { IncomingHttpHeaders } from 'node:http';
import secureJson from 'secure-json-parse';
import { HTTPException } from '../http-exception';
import type { JsonLimits } from '../request';

/** Deeper JSON is refused: validators and transformers recurse, and no API needs more. */
export const MAX_JSON_DEPTH = 64;

/** Default of `AppOptions.maxObjectKeys`: the most keys one JSON object of a body may have (413 above). */
export const DEFAULT_MAX_OBJECT_KEYS = 1000;

/**
 * Default of `AppOptions.maxJsonContainers`: the most objects and arrays in one JSON body (413 above). Parsing
 * costs per value created: a 1 MiB body of small nested objects is 200,000 of them and blocks the event loop
 * for 40-80 ms in `JSON.parse` and the collection after it; 100,000 keeps that near 20 ms, and 1 MiB of
 * ordinary data (a 1,000-item batch, 40,000 GeoJSON points) stays well below it.
 */
export const DEFAULT_MAX_JSON_CONTAINERS = 100_000;

export type { JsonLimits };

export const DEFAULT_JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({
  maxObjectKeys: DEFAULT_MAX_OBJECT_KEYS,
  maxJsonContainers: DEFAULT_MAX_JSON_CONTAINERS,
});

/** The 413 of an array body longer than `@Body({ maxItems })`. */
export function tooManyItems(maxItems: number): HTTPException {
  return new HTTPException(413, `The body is an array of more than ${maxItems} items`);
}

/**
 * Parses a JSON body; empty is `undefined`. Before parsing, one linear pass refuses nesting deeper than
 * {@link MAX_JSON_DEPTH} (400), an object with more than `maxObjectKeys` keys (413), more than
 * `maxJsonContainers` objects and arrays in all (413) and, when `maxItems` is given, a body that is an array of
 * more items (413), so that neither the parse nor anything after it (transformers, validators) works per key
 * of a huge object, per value of a body made of tiny ones, or per item of a huge batch.
 */
export function parseJson(bytes: Buffer, limits: Readonly<JsonLimits> = DEFAULT_JSON_LIMITS, maxItems = Infinity): unknown {
  if (bytes.length === 0) return undefined;
  const { maxObjectKeys, maxJsonContainers } = limits;
  const excess = scan(bytes, MAX_JSON_DEPTH, maxObjectKeys, maxJsonContainers, maxItems);
  if (excess) throw jsonRefusal(excess, limits, maxItems);
  try {
    return secureJson.parse(bytes, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/i.test(error.message)) throw jsonRefusal('prototype', limits, maxItems);
    throw new HTTPException(400, 'Malformed JSON body');
  }
}

/** What a JSON body over a limit, or with a `__proto__`/`constructor.prototype` key, is answered with. */
export function jsonRefusal(
  excess: 'depth' | 'keys' | 'containers' | 'items' | 'prototype',
  { maxObjectKeys, maxJsonContainers }: Readonly<JsonLimits>,
  maxItems: number,
): HTTPException {
  if (excess === 'depth') return new HTTPException(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (excess === 'keys') return new HTTPException(413, `A JSON object of the body has more than ${maxObjectKeys} keys`);
  if (excess === 'containers') return new HTTPException(413, `The JSON body has more than ${maxJsonContainers} objects and arrays`);
  if (excess === 'items') return tooManyItems(maxItems);
  return new HTTPException(400, 'JSON body may not contain "__proto__" or "constructor.prototype" keys');
}

const OBJECT = 1;
// The scan's stack of open containers (kind, and keys or items so far), one pair per level: made once, since the
// scan runs synchronously and sets a level before reading it (allocating them took as long as scanning a small body).
const KINDS = new Uint8Array(MAX_JSON_DEPTH + 1);
const COUNTS = new Uint32Array(MAX_JSON_DEPTH + 1);

// One pass over the bytes, skipping strings; cheaper than parsing and stops at the first excess. A stack of
// open containers counts the keys (colons) of each object, and commas count the items of a top-level array.
// Malformed JSON is left to the parser.
function scan(
  bytes: Buffer,
  maxDepth: number,
  maxKeys: number,
  maxJsonContainers: number,
  maxItems: number,
): 'depth' | 'keys' | 'containers' | 'items' | undefined {
  if (bytes.length <= maxKeys && bytes.length < maxItems && openings(bytes) <= Math.min(maxDepth, maxJsonContainers)) {
    return undefined;
  }
  const kinds = maxDepth <= MAX_JSON_DEPTH ? KINDS : new Uint8Array(maxDepth + 1);
  const keys = maxDepth <= MAX_JSON_DEPTH ? COUNTS : new Uint32Array(maxDepth + 1);
  kinds[0] = 0;
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) {
      if (kinds[depth] === OBJECT && ++keys[depth] > maxKeys) return 'keys';
    } else if (c === 0x2c) {
      if (depth === 1 && kinds[1] !== OBJECT && ++keys[1] >= maxItems) return 'items';
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return 'depth';
      if (++containers > maxJsonContainers) return 'containers';
      kinds[depth] = c === 0x7b ? OBJECT : 0;
      keys[depth] = 0;
    } else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--;
  }
  return undefined;
}

// The `{` and `[` bytes of a body, strings included: at most as many as it has levels or containers. With no more
// than the limits allow, and fewer bytes than keys (each needs a colon) or items (each after the first a comma),
// no limit can be exceeded; this count takes half the time of the scan (65 against 130 ns for 76 bytes).
function openings(bytes: Buffer): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] | 0x20) === 0x7b) count++; // 0x5b `[` | 0x20 is 0x7b `{`
  return count;
}

/** Whether the request frames a body (Content-Length above 0, or Transfer-Encoding), as Fastify decides. */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
