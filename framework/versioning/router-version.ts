import { TrellisError } from '../framework-error';

// Letters, digits and `._-`, starting with a letter or digit: safe in a URL segment, a header and a file name.
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

// The versions `router(path, { version })` gave a router's base class; kept per class, never global.
const routerVersions = new WeakMap<Function, readonly string[]>();

/**
 * `version` as a list of distinct, well-formed names (`TRELLIS_ERR_VERSION_NAME` otherwise, naming `where`): what a
 * router or `@Version` is given.
 *
 * @example
 * ```ts
 * checkedVersions(['1', '2'], "router('/tasks')"); // ['1', '2']
 * ```
 */
export function checkedVersions(version: string | readonly string[], where: string): readonly string[] {
  const list = typeof version === 'string' ? [version] : [...version];
  if (list.length === 0) throw new TrellisError('TRELLIS_ERR_VERSION_NAME', where, '[]', 'give at least one version');
  for (const name of list) {
    if (!isVersionName(name)) {
      throw new TrellisError('TRELLIS_ERR_VERSION_NAME', where, JSON.stringify(name), 'use 1 to 32 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
  }
  if (new Set(list).size !== list.length) throw new TrellisError('TRELLIS_ERR_VERSION_NAME', where, JSON.stringify(list), 'a version is listed twice');
  return Object.freeze(list);
}

/** Whether `name` is a well-formed version name. */
export function isVersionName(name: unknown): name is string {
  return typeof name === 'string' && VERSION_NAME.test(name);
}

/** Records the versions of a router's base class (what `router(path, { version })` makes). */
export function setRouterVersions(cls: Function, versions: readonly string[]): void {
  routerVersions.set(cls, versions);
}

/** The versions `router(path, { version })` gave `cls` or a class it extends, nearest first; undefined when none. */
export function routerVersionsOf(cls: Function): readonly string[] | undefined {
  for (let current: Function | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const versions = routerVersions.get(current);
    if (versions) return versions;
  }
  return undefined;
}
