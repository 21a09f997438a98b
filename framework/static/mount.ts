import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Get } from '../decorators/route';
import { Req } from '../decorators/parameter';
import { errorResponse } from '../error-envelope';
import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import { Request } from '../request';
import { FileResponse } from '../responses/file';
import { router, type Controller } from '../router';
import { trimTrailingSlashes } from '../routing/path';
import { resolveInside } from './safe-path';

export interface StaticMount {
  /** URL prefix, e.g. `/static`. */
  prefix: string;
  /** Absolute real path of the served directory. */
  dir: string;
}

/** Checks a static mount's prefix and directory (which must exist now) and resolves the directory once. */
export function staticMount(prefix: string, dir: string): StaticMount {
  if (!/^\/[^{}*:?#]*$/.test(prefix)) throw new TrellisError('TRELLIS_ERR_STATIC_PREFIX', JSON.stringify(prefix));
  const mountPath = trimTrailingSlashes(prefix) || '/';
  let root: string;
  try {
    root = realpathSync(resolve(dir));
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new TrellisError('TRELLIS_ERR_STATIC_DIR', dir);
  }
  return { prefix: mountPath, dir: root };
}

/**
 * The files of a checked mount as a router class: `GET {prefix}/*` (HEAD included), each path checked by
 * `resolveInside` first and served as a {@link FileResponse} (ETag, Last-Modified, Range, 304). What must not
 * be served (dotfiles, `..` and encoded separators, directories, symlinks leading out) is a JSON 404, never
 * a byte from outside the directory. Routes declared by the app's routers win over the wildcard.
 */
export function staticRouter({ prefix, dir }: StaticMount): Class<Controller> {
  const skip = prefix === '/' ? 1 : prefix.length + 1;

  class StaticFiles extends router(prefix) {
    @Get('/*', { includeInSchema: false }) file(@Req() request: Request) {
      // `request.path` is the canonical path the router matched: separators and `%` stay encoded.
      return resolveInside(dir, request.path.slice(skip)).then((file) =>
        file === undefined ? errorResponse(404, 'Not Found') : new FileResponse(file),
      );
    }
  }
  return StaticFiles;
}
