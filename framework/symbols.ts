// Leaf: the framework's internal keys (as Fastify's lib/symbols.js). Imports nothing.

/** Where the dispatcher keeps the matched route's compiled pipeline (internal). */
export const MATCHED = Symbol('trellis.matched');

/**
 * The Node response of a request (internal): only the writer, the Express-middleware adapter and upload cleanup
 * touch it, so a handler or middleware cannot write around the pipeline.
 */
export const RESPONSE = Symbol('trellis.response');

/** Where a request keeps its app's `RequestContext` (internal). */
export const CONTEXT = Symbol('trellis.context');

/** The body bytes called back, read once (internal; `body()` is its promise). */
export const READ_BODY = Symbol('trellis.readBody');

/** The body parsed as JSON, called back (internal; `json()` is its promise): what a JSON route's arguments wait for. */
export const READ_JSON = Symbol('trellis.readJson');

/** A `JSONResponse`'s body already encoded, in a route's declared shape (internal: given by `toResponse`). */
export const ENCODED = Symbol('trellis.encoded');

/** Whether the pipeline has run a response's `prepare` (internal). */
export const PREPARED = Symbol('trellis.prepared');
