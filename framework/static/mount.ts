import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { ExpressApp } from '../express-app';
import { TrellisError } from '../framework-error';
import { HTTPException, defaultMessage } from '../http-exception';
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
  const mountPath = prefix.replace(/\/+$/, '') || '/';
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
 * Serves the files of a checked mount on the app's Express instance, with serve-static (ETag,
 * Last-Modified, Range, HEAD). Every path is checked first by `resolveInside`; what fails ends as the
 * app's JSON 404 (400 for malformed encoding, 405 for a method other than GET/HEAD on a file), never a byte
 * from outside the directory.
 */
export function serveStatic(express: ExpressApp, { prefix, dir: root }: StaticMount): void {
  const serve = (require('express') as typeof import('express')).static(root, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
  });

  // What is not a servable file falls through (to later Express handlers, then the JSON 404), so a mount
  // at `/` does not hide the docs, the favicon or another mount.
  express.use(prefix, (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const url = req.url;
    const q = url.indexOf('?');
    resolveInside(root, q < 0 ? url : url.slice(0, q)).then((safe) => {
      if (safe === undefined) return next();
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return next(new HTTPException(405, 'Method Not Allowed', { headers: { allow: 'GET, HEAD' } }));
      }
      req.url = q < 0 ? safe : safe + url.slice(q);
      serve(req, res, (error?: unknown) => {
        req.url = url;
        next(error === undefined ? undefined : cleanError(error));
      });
    }).catch(next); // a throw in the step above too: no rejection in the request path goes unhandled
  });
}

// serve-static's errors carry the file system path in their message: keep only a 4xx status. Others
// (EACCES, EMFILE) go on as they are, to be logged and answered with a bare 500.
function cleanError(error: unknown): unknown {
  const { status, statusCode } = (error ?? {}) as { status?: number; statusCode?: number };
  const code = status ?? statusCode;
  return code !== undefined && code >= 400 && code < 500 ? new HTTPException(code, defaultMessage(code)) : error;
}
