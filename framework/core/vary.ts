/**
 * The `Vary` value that adds `field` to `current`, or `undefined` when `current` already names it (or `*`).
 * Field names compare without case; the list is split on commas, not with a regular expression, so a
 * header value of any length costs one pass.
 *
 * @example
 * ```ts
 * varyWith(undefined, 'Origin'); // 'Origin'
 * varyWith('Accept-Encoding', 'Origin'); // 'Accept-Encoding, Origin'
 * varyWith('accept-encoding, origin', 'Origin'); // undefined
 * varyWith('*', 'Origin'); // undefined
 * ```
 */
export function varyWith(current: string | undefined, field: string): string | undefined {
  if (current === undefined || current.trim() === '') return field;
  const wanted = field.toLowerCase();
  for (const name of current.split(',')) {
    const named = name.trim().toLowerCase();
    if (named === '*' || named === wanted) return undefined;
  }
  return `${current}, ${field}`;
}
