// Leaf: the limits a path, query or header parameter declares, recorded in its metadata (metadata.ts) and checked
// by pipeline/constraints.ts. Imports nothing.

/**
 * Limits on a path, query or header value, checked after it is converted (422 past them) and written into its
 * OpenAPI schema. For an array parameter they apply to each item.
 *
 * @example
 * ```ts
 * @Get() list(@Query('limit', { type: Int, default: 20, minimum: 1, maximum: 100 }) limit: number,
 *             @Header('X-Tenant', { minLength: 3, maxLength: 32, pattern: '^[a-z0-9-]+$' }) tenant: string) { ... }
 * ```
 */
export interface ValueConstraints {
  /** The smallest number accepted (inclusive); number and integer parameters only. */
  minimum?: number;
  /** The largest number accepted (inclusive); number and integer parameters only. */
  maximum?: number;
  /** The only values accepted, each of the parameter's type (`['name', 'price']`, `[10, 20, 50]`). */
  enum?: readonly (string | number | boolean)[];
  /**
   * A regular expression (JavaScript syntax with the `u` flag, as JSON Schema validators read it) the string must
   * match somewhere: anchor it (`^...$`) to match the whole value. It is yours and runs on the client's text: the
   * text is bounded (a path segment by 100 characters, a query value or header by the 16 KiB header limit) and, with
   * `minLength`/`maxLength`, only a value within them is matched, so give a pattern with nested quantifiers
   * (`(a+)+`) a `maxLength`, or better none of those.
   */
  pattern?: string;
  /** The fewest characters (code points) of a string value. */
  minLength?: number;
  /** The most characters (code points) of a string value. */
  maxLength?: number;
}
