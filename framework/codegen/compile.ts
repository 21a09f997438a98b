import { Code, Name } from './code';

/** The environment variable that prints generated functions (see {@link compile}). */
export const PRINT_CODE_VARIABLE = 'TRELLIS_PRINT_CODE';

/**
 * Makes a function whose parameters are the names of `params` and whose body is `body`, calls it once with
 * the values of `params`, and returns what `body` returns (the caller names its type, `T`). This is the only
 * way generated code becomes a function in trellis (fast-json-stringify's own output aside).
 *
 * `label` names what is generated, as `DtoClass.step` (`UserIn.check`). When the environment variable
 * `TRELLIS_PRINT_CODE` is `1` (or `*`), every generated function is written to stderr, a `// trellis codegen:
 * <label>` line first; when it is a comma-separated list, only those whose label is an entry or has an entry as
 * one of its dot-separated parts (`UserIn`, `check`, `UserIn.patch`).
 *
 * @example
 * ```ts
 * const limit = new Name('limit');
 * const below = compile<(n: number) => boolean>('Demo.below', [[limit, 10]], code`return (n) => n < ${limit};`);
 * below(3); // true
 * ```
 */
export function compile<T>(label: string, params: ReadonlyArray<readonly [Name, unknown]>, body: Code): T {
  if (!(body instanceof Code)) throw new TypeError('codegen: compile() takes a body made by code`...`');
  const names = params.map(([name]) => {
    if (!(name instanceof Name)) throw new TypeError('codegen: compile() takes its parameters as Names');
    return String(name);
  });
  const make = new Function(...names, String(body)) as (...values: unknown[]) => T;
  if (printing(label, process.env[PRINT_CODE_VARIABLE])) {
    process.stderr.write(`// trellis codegen: ${label.replace(/[\r\n\u2028\u2029]/g, ' ')}\n${make}\n\n`);
  }
  return make(...params.map(([, value]) => value));
}

/**
 * Whether `setting` (the value of `TRELLIS_PRINT_CODE`) selects the function labelled `label`.
 *
 * @example
 * ```ts
 * printing('UserIn.check', 'UserIn'); // true
 * printing('UserInfo.check', 'UserIn'); // false
 * ```
 */
export function printing(label: string, setting: string | undefined): boolean {
  if (!setting || setting === '0') return false;
  if (setting === '1' || setting === '*') return true;
  const parts = label.split('.');
  return setting.split(',').some((entry) => {
    const wanted = entry.trim();
    return wanted !== '' && (wanted === label || parts.includes(wanted));
  });
}
