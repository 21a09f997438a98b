// Leaf: the framework's internal keys (as Fastify's lib/symbols.js). Imports nothing. Every key is @internal:
// the published .d.ts files name none of them (tsconfig.build.json's stripInternal; e2e/package checks it).

/** @internal Where the dispatcher keeps the matched route's compiled pipeline. */
export const MATCHED = Symbol('trellis.matched');

/**
 * @internal The Node response of a request: only the writer, the Express-middleware adapter and the cleanup of
 * uploads and streams touch it, so a handler or middleware cannot write around the pipeline.
 */
export const RESPONSE = Symbol('trellis.response');

/** @internal Where a request keeps its app's `RequestContext`. */
export const CONTEXT = Symbol('trellis.context');

/** @internal Where the body reader keeps a request's body: the read under way (its callbacks), then its outcome. */
export const BODY = Symbol('trellis.body');

/** @internal Where the body reader keeps a request's form, parsed once. */
export const FORM = Symbol('trellis.form');

/** @internal A `JSONResponse`'s body already encoded, in a route's declared shape (given by `toResponse`). */
export const ENCODED = Symbol('trellis.encoded');

/** @internal Whether the pipeline has run a response's `prepare`. */
export const PREPARED = Symbol('trellis.prepared');

/**
 * @internal Marks a socket that has had a request, with its server's send timeout: from then on, its idle timer
 * firing with no response under way is Node's keep-alive timer, and a response that leaves bytes waiting arms
 * the send timeout.
 */
export const SEND_TIMEOUT = Symbol('trellis.sendTimeout');

/** @internal Marks a socket whose current request was answered while the rest of its body is being drained. */
export const ANSWERED = Symbol('trellis.answered');

/** @internal The scopes the matched route needs (`@Scopes`), set on a request by the dispatcher with its route. */
export const SCOPES = Symbol('trellis.scopes');

/** @internal Marks a guard that checks the scopes a route needs (`jwtAuth`): a route with `@Scopes` needs one. */
export const CHECKS_SCOPES = Symbol.for('trellis.checksScopes');

/**
* @internal On a framework middleware instance (the CORS preflight, a rate limit): its `callNext` returns the downstream
 * response as it comes, a `Response` when it is ready at once, instead of always a promise, so that passing a
 * request through keeps a synchronous GET synchronous. Never on user middleware, whose `callNext` is typed as a promise.
 */
export const SYNC_NEXT = Symbol('trellis.syncNext');

/** @internal On an upgrade request (`Upgrade: websocket`): its socket and first bytes, and the gateway's accept once it admits it. */
export const UPGRADE = Symbol('trellis.upgrade');

/**
 * @internal On a socket the server counts against its HTTP connection cap: takes it out of that count (an upgraded
 * WebSocket counts against the gateways' own caps instead).
 */
export const HTTP_SLOT = Symbol('trellis.httpSlot');

/** @internal A request's copy for one WebSocket message: the upgrade's headers, query, id and user, its own scopes. */
export const MESSAGE_REQUEST = Symbol('trellis.messageRequest');
