/**
 * The `field` of a 422 detail: `property` under `prefix`, dotted for names and bracketed for indexes, exactly as
 * framework/pipeline/validate.ts has always joined class-validator's error tree (`items[0].name`).
 *
 * @example
 * ```ts
 * joinField('items', 0); // 'items[0]'
 * joinField('items[0]', 'name'); // 'items[0].name'
 * ```
 */
export function joinField(prefix: string, property: string | number): string {
  if (typeof property === 'number' || /^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}
