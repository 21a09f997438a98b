/**
 * A value {@link literalOf} writes as JavaScript source: a string, number, boolean, null or undefined, or a plain
 * array or object of those. Functions, symbols, bigints and class instances (a Date, a Map, an object with
 * methods) are not: the type checker refuses them where a `SafeValue` is expected.
 */
export type SafeValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly SafeValue[]
  | { readonly [key: string]: SafeValue };

/**
 * The JavaScript expression that evaluates to `value`, or a TypeError for anything that is not a
 * {@link SafeValue} (checked again at run time, for values typed `any`). Strings are JSON-quoted with U+2028,
 * U+2029 and `<` escaped as well, so the source can be printed into a `<script>` or a log line; -0, NaN and
 * the infinities keep their value; a `__proto__` key stays an own key.
 *
 * @example
 * ```ts
 * literalOf('say "hi"'); // '"say \\"hi\\""'
 * literalOf({ __proto__: null, list: [1, -0] }); // '{"list":[1,(-0)]}'
 * ```
 */
export function literalOf(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, open: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'number':
      return numberLiteral(value);
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'undefined';
    case 'object':
      if (value === null) return 'null';
      if (open.has(value)) throw new TypeError('codegen: a value that contains itself cannot be a literal');
      open.add(value);
      try {
        if (Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype) {
          return `[${Array.from(value, (item) => write(item, open)).join(',')}]`;
        }
        if (isPlainObject(value)) return objectLiteral(value, open);
      } finally {
        open.delete(value);
      }
  }
  throw new TypeError(`codegen: ${describe(value)} cannot be a literal in generated code: interpolate a Name or Code, or pass it as a parameter of compile()`);
}

function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029<]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// In parentheses when negative, so that `x-${-1}` cannot read as `x--1`.
function numberLiteral(number: number): string {
  if (Object.is(number, -0)) return '(-0)';
  return number < 0 ? `(${number})` : String(number);
}

function objectLiteral(object: object, open: Set<object>): string {
  const entries = Object.keys(object).map((key) => {
    const { value } = Object.getOwnPropertyDescriptor(object, key)!;
    // A plain `"__proto__": value` entry would set the prototype; a computed key defines an own property.
    const name = key === '__proto__' ? `[${stringLiteral(key)}]` : stringLiteral(key);
    return `${name}:${write(value, open)}`;
  });
  return `{${entries.join(',')}}`;
}

// An object literal or Object.create(null), with data properties only (a getter would run while writing).
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  return Object.keys(value).every((key) => 'value' in Object.getOwnPropertyDescriptor(value, key)!);
}

function describe(value: unknown): string {
  if (typeof value === 'function') return `the function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object' && value !== null) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) return 'an object with accessors or symbol keys';
    return `an instance of ${prototype.constructor?.name || 'a class'}`;
  }
  return `a ${typeof value}`;
}
