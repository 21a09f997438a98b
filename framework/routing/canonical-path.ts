// An absolute-form request target (`GET http://host/users/me`): the scheme and authority before the path.
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The path the route table matches, from the path part of a request target (query string already cut off):
 * the absolute form reduced to its path, a `#fragment` dropped, percent-escapes decoded except those of
 * `/ ? # % & + , : ; = @ $` (so `%2F` stays inside one segment, as the router keeps it), and a trailing slash
 * removed. `undefined` for a target that is not a path (`*`, `host:port`) or has a malformed escape.
 *
 * The result is what find-my-way itself would match for the raw target, and find-my-way leaves it unchanged:
 * middleware comparing `request.path` sees exactly what the router matched (`/users/%6de`, `/users/me/` and
 * `http://x/users/me` are all `/users/me`).
 *
 * @example
 * ```ts
 * canonicalPath('/users/%6de/');      // '/users/me'
 * canonicalPath('/files/a%2Fb');      // '/files/a%2Fb'
 * ```
 */
export function canonicalPath(target: string): string | undefined {
  let path = target;
  if (path.charCodeAt(0) !== 0x2f) {
    const absolute = ABSOLUTE_FORM.exec(path);
    if (!absolute) return undefined;
    path = path.slice(absolute[0].length) || '/';
    if (path.charCodeAt(0) !== 0x2f) return undefined; // `http://host#x`
  }
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  if (path.includes('%')) {
    try {
      // decodeURI keeps the escapes of reserved characters but decodes `%25`; protect it to keep it too.
      path = decodeURI(path.replaceAll('%25', '%2525'));
    } catch {
      return undefined;
    }
  }
  return path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f ? path.slice(0, -1) : path;
}

/**
 * The canonical path and the query string of a request's target, as the listener reads them; undefined for a
 * path HTTP forbids.
 *
 * @example
 * ```ts
 * upgradeTarget({ url: '/ws/rooms/%61?x=1' }); // { path: '/ws/rooms/a', search: 'x=1' }
 * ```
 */
export function upgradeTarget(req: { url?: string }): { path: string; search: string } | undefined {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = canonicalPath(q < 0 ? url : url.slice(0, q));
  return path === undefined ? undefined : { path, search: q < 0 ? '' : url.slice(q + 1) };
}
