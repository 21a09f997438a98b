/**
 * What `await` would wait for: an object or function with a `then` method (a promise from another realm or
 * library included).
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * isThenable({ then: 1 }); // false
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return ((typeof value === 'object' && value !== null) || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function';
}
