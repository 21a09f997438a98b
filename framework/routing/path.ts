import { TrellisError } from '../framework-error';

const PARAM = /\{([^{}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `('/tasks', '/')` and `('/tasks', '')` are `/tasks`; `('/users/{id}', 'posts')` is `/users/{id}/posts`. */
export function joinPath(base: string, sub: string): string {
  const joined = `/${base}/${sub}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** The `{name}` parameters of a path, in order; throws on malformed or repeated names. */
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

/** The same string for paths that differ only in parameter names: `/a/{x}` and `/a/{y}` collide. */
export function pathShape(path: string): string {
  return path.replace(PARAM, '{}');
}
