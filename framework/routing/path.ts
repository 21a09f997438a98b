import { TrellisError } from '../framework-error';

const PARAM = /\{([^{}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `('/tasks', '/')` and `('/tasks', '')` are `/tasks`; `('/users/{id}', 'posts')` is `/users/{id}/posts`. */
export function joinPath(base: string, sub: string): string {
  const joined = `/${base}/${sub}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/**
 * `path` without its trailing slashes, in one pass (`/\/+$/` backtracks in time quadratic in a run of slashes).
 *
 * @example
 * ```ts
 * trimTrailingSlashes('/static//'); // '/static'
 * trimTrailingSlashes('/'); // ''
 * ```
 */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === path.length ? path : path.slice(0, end);
}

/**
 * The `{name}` parameters of a route path, in order: what `@Path(name)` arguments bind. A malformed or
 * repeated name is a `TRELLIS_ERR_INVALID_PATH`.
 *
 * @example
 * ```ts
 * pathParams('/users/{user_id}/friends/{friend_id}'); // ['user_id', 'friend_id']
 * ```
 */
export function pathParams(path: string): string[] {
  const names: string[] = [];
  for (const [, name] of path.matchAll(PARAM)) {
    if (!NAME.test(name)) throw new TrellisError('TRELLIS_ERR_INVALID_PATH', path, `"{${name}}" is not a parameter name`);
    if (names.includes(name)) throw new TrellisError('TRELLIS_ERR_INVALID_PATH', path, `{${name}} appears twice`);
    names.push(name);
  }
  if (/[{}]/.test(path.replace(PARAM, ''))) throw new TrellisError('TRELLIS_ERR_INVALID_PATH', path, 'unbalanced braces');
  return names;
}

/** find-my-way syntax: `{id}` -> `:id`, a literal `:` escaped as `::`. */
export function toRadixPath(path: string): string {
  return path.replace(/:/g, '::').replace(PARAM, ':$1');
}

/**
 * The same string for paths that differ only in parameter names: two routes of one method whose paths have
 * the same shape are a `TRELLIS_ERR_DUPLICATE_ROUTE`.
 *
 * @example
 * ```ts
 * pathShape('/a/{x}') === pathShape('/a/{y}'); // true: both are '/a/{}'
 * ```
 */
export function pathShape(path: string): string {
  return path.replace(PARAM, '{}');
}

/**
 * Whether `specific` takes requests `general` would otherwise match, whichever was declared first: both have
 * the same number of segments, and wherever they differ `specific` has a literal and `general` a `{param}`
 * (the route table tries literal segments before parameters).
 *
 * @example
 * ```ts
 * outranks('/users/me', '/users/{user_id}'); // true: GET /users/me never reaches the {user_id} route
 * outranks('/users/{id}', '/users/{user_id}'); // false: the same shape
 * ```
 */
export function outranks(specific: string, general: string): boolean {
  const [mine, theirs] = [specific.split('/'), general.split('/')];
  if (mine.length !== theirs.length) return false;
  const isParam = (segment: string) => pathShape(segment) === '{}';
  let narrower = false;
  for (let i = 0; i < theirs.length; i++) {
    if (mine[i] === theirs[i] || (isParam(mine[i]) && isParam(theirs[i]))) continue;
    if (!isParam(theirs[i]) || isParam(mine[i])) return false;
    narrower = true;
  }
  return narrower;
}
