import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { HTTPException } from '../http-exception';

// Encoded `/`, `\` and NUL: a file name never needs them, and decoding them would change the path's shape.
const ENCODED_SEPARATOR = /%(?:2f|5c|00)/i;

/**
 * Resolves a request path (relative to the mount point, still percent-encoded) to the file it names inside
 * `root` (a real path), or `undefined` when it must not be served: `.`/`..` or dotfile segments, encoded
 * separators, backslashes, a missing file, or a symlink that leads outside `root` or to a dotfile.
 * A malformed percent-encoding is a 400. The result is the file's real (absolute) path.
 */
export async function resolveInside(root: string, pathname: string): Promise<string | undefined> {
  if (pathname.includes('\\') || pathname.includes('\0') || ENCODED_SEPARATOR.test(pathname)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new HTTPException(400, 'Malformed path');
  }
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.some(hidden)) return undefined;

  let real: string;
  try {
    real = await realpath(join(root, ...segments));
  } catch {
    return undefined;
  }
  const base = root.endsWith(sep) ? root : root + sep;
  if (!real.startsWith(base)) return undefined;
  const inside = real.slice(base.length).split(sep);
  if (inside.some(hidden)) return undefined;
  return real;
}

/** `.`, `..` and dotfiles (`.env`, `.git`). */
function hidden(segment: string): boolean {
  return segment.startsWith('.');
}
