import { literalOf, type SafeValue } from './literal';

// Only this module makes Code: its constructor asks for a key no other module holds.
const MAKE: unique symbol = Symbol('codegen');

/**
 * A piece of JavaScript source made by the {@link code} template (or {@link join}, {@link prop}): interpolated
 * into another `code` template it is inserted as code. It cannot be made from a plain string.
 *
 * @example
 * ```ts
 * const test = code`value !== undefined`;
 * String(code`if (${test}) count++;`); // 'if (value !== undefined) count++;'
 * ```
 */
export class Code {
  readonly #text: string;

  /** Made by {@link code}, {@link join} and {@link prop} only: `key` is private to this module. */
  constructor(key: typeof MAKE, text: string) {
    if (key !== MAKE) throw new TypeError('codegen: Code is made by the code`...` template, not from a string');
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

/** What a {@link code} template inserts: code and names as they are, any other value as its literal. */
export type Interpolated = Code | Name | SafeValue;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

// Not bindable as names (or, for the last ones, bindable but then no longer what the literals mean).
const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await arguments eval undefined NaN Infinity').split(' '),
);

/**
 * An identifier of generated code (a parameter, a constant): an ASCII JavaScript identifier that is not a
 * reserved word nor `undefined`, `NaN` or `Infinity` (which literals use), else a TypeError.
 *
 * @example
 * ```ts
 * const value = new Name('value');
 * String(code`const ${value} = 1;`); // 'const value = 1;'
 * new Name('a-b'); // TypeError
 * ```
 */
export class Name {
  readonly #text: string;

  constructor(text: string) {
    if (typeof text !== 'string' || !IDENTIFIER.test(text) || RESERVED.has(text)) {
      throw new TypeError(`codegen: ${JSON.stringify(text)} is not a name generated code can bind`);
    }
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

/**
 * The tag that makes generated code: each `${value}` inserts a {@link Code} or {@link Name} as code and any
 * other value as its literal (JSON-quoted string, number, plain array or object). A function, symbol or class
 * instance is refused by the type checker, and throws a TypeError at run time.
 *
 * @example
 * ```ts
 * const key = 'full "name"';
 * String(code`if (key !== ${key}) drop(key);`); // 'if (key !== "full \\"name\\"") drop(key);'
 * ```
 */
export function code(strings: TemplateStringsArray, ...values: Interpolated[]): Code {
  if (!Array.isArray(strings.raw)) throw new TypeError('codegen: code`...` is a template tag, not a function of a string');
  let text = cooked(strings, 0);
  for (let i = 0; i < values.length; i++) text += insert(values[i]) + cooked(strings, i + 1);
  return new Code(MAKE, text);
}

/** Code with nothing in it, to interpolate where a part is left out (an empty string would insert `""`). */
export const nil: Code = new Code(MAKE, '');

/**
 * The parts one after the other, `separator` between each two ({@link nil} when there is none).
 *
 * @example
 * ```ts
 * String(join([code`a`, code`b`], code` && `)); // 'a && b'
 * ```
 */
export function join(parts: readonly Code[], separator: Code): Code {
  for (const part of [...parts, separator]) {
    if (!(part instanceof Code)) throw new TypeError('codegen: join() joins Code only');
  }
  return new Code(MAKE, parts.join(String(separator)));
}

/**
 * The expression reading (or assigning) property `key` of `object`: `object.key` for an identifier,
 * `object["key"]` or `object[0]` otherwise. `__proto__` is refused: either form would reach the prototype,
 * not an own property.
 *
 * @example
 * ```ts
 * const object = new Name('object');
 * String(prop(object, 'title')); // 'object.title'
 * String(prop(object, 'full name')); // 'object["full name"]'
 * ```
 */
export function prop(object: Code | Name, key: string | number): Code {
  if (!(object instanceof Code || object instanceof Name)) throw new TypeError('codegen: prop() reads a property of Code or a Name');
  if (key === '__proto__') throw new TypeError('codegen: prop() cannot read __proto__: it is the prototype, not a property');
  if (typeof key === 'string' && IDENTIFIER.test(key)) return new Code(MAKE, `${object}.${key}`);
  if (typeof key !== 'string' && typeof key !== 'number') throw new TypeError('codegen: a property key is a string or a number');
  return new Code(MAKE, `${object}[${literalOf(key)}]`);
}

function insert(value: unknown): string {
  return value instanceof Code || value instanceof Name ? String(value) : literalOf(value);
}

// A template with an invalid escape (`\u{`) has no cooked text for that part.
function cooked(strings: TemplateStringsArray, i: number): string {
  const text = strings[i];
  if (typeof text !== 'string') throw new SyntaxError(`codegen: part ${i} of the template has an invalid escape sequence`);
  return text;
}
