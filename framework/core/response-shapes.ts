// Leaf: a route's compiled response encoders, as pipeline/response-shape.ts makes them and result.ts and dispatch.ts
// use them. Imports nothing.

/** Turns a body into JSON text holding only its declared properties; throws `TRELLIS_ERR_RESPONSE_SHAPE` when it does not fit. */
export type Encode = (value: unknown) => string;

/** A route's declared body shapes, by status: what `toResponse` encodes a returned body (or a tuple's) with. */
export type ResponseShapes = ReadonlyMap<number, Encode>;
