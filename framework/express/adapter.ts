import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExpressMiddleware } from '../core/express-middleware';
import { defaultLogger } from '../logger';
import { Middleware, type CallNext } from '../middleware';
import type { Request } from '../request';
import { CONTEXT, RESPONSE } from '../symbols';
import { Response } from '../response';
import type { SecurityDeclaration } from '../security';
import { report } from '../report';
import { markForMiddleware } from '../write';
import { expressify } from './prototypes';

/**
 * Runs Express-style `(req, res, next)` middleware in the trellis pipeline, globally or per router: the one
 * adapter `addMiddleware` wraps a plain function in. The request and response get Express's methods first
 * (`req.get()`, `res.status().json()`), as in an Express app.
 *
 * Headers the middleware sets before calling `next()` (CORS, helmet's) join the response the rest of the
 * pipeline produces, where middleware around it can read and change them. A middleware that answers by
 * itself (a CORS preflight, a rate limit's 429, a session store's error) writes through Node's response:
 * middleware around it sees that response's status and headers, but cannot change them any more.
 *
 * While it runs, `req.url` (so `req.path`) is the path the router matched, query string kept: a guard
 * comparing `req.path` sees `/admin/x` for `/%61dmin/x` and `/admin/x/`, as the route does. `next(error)`, a
 * throw, or a returned promise that rejects (an `async` middleware) becomes the app's error response (a 500
 * `{error}` logged once with the request id), as in Express 5.
 *
 * @example
 * ```ts
 * import cors from 'cors';
 * app.addMiddleware(cors());                                 // wrapped in this adapter
 * app.addMiddleware(new ExpressMiddlewareAdapter(helmet()));  // the same, spelled out
 * ```
 */
export class ExpressMiddlewareAdapter extends Middleware {
  readonly #fn: ExpressMiddleware;

  constructor(fn: ExpressMiddleware) {
    super();
    this.#fn = fn;
  }

  /** The scheme the wrapped function declares (`Object.assign(fn, { security: bearerAuth() })`), for the docs. */
  get security(): SecurityDeclaration | undefined {
    return (this.#fn as { security?: SecurityDeclaration }).security;
  }

  async dispatch(request: Request, callNext: CallNext): Promise<Response> {
    const { raw: req, [RESPONSE]: res } = request;
    expressify(req, res);
    // For a response the middleware writes by itself (a static file's stream, watched from the start).
    markForMiddleware(request);
    const answered = await this.#run(request, req, res);
    if (answered) return answered;
    const response = await callNext(request);
    // An Express middleware further on answered by itself: that answer, headers set here included, is sent.
    if (res.headersSent) return response;
    // Headers the middleware set on Node's response move to the pipeline's response (which wins a clash;
    // cookies from both are kept).
    for (const name of res.getHeaderNames()) {
      const value = res.getHeader(name)!;
      if (name === 'set-cookie') for (const cookie of [value].flat()) response.headers.append(name, String(cookie));
      else if (!response.headers.has(name)) response.headers.set(name, typeof value === 'number' ? String(value) : value);
      res.removeHeader(name);
    }
    return response;
  }

  /**
   * Runs the middleware with `req.url` set to the routed path: `undefined` once it calls `next()`, the response
   * it sent if it answered itself; rejects with what it passed to `next()`, threw or rejected with.
   */
  #run(request: Request, req: IncomingMessage, res: ServerResponse): Promise<Response | undefined> {
    return new Promise((resolve, reject) => {
      const received = req.url ?? '/';
      const q = received.indexOf('?');
      req.url = q < 0 ? request.path : request.path + received.slice(q);
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        res.off('finish', ended).off('close', ended);
        req.url = received;
        return true;
      };
      const ended = () => {
        if (settle()) resolve(answeredBy(res));
      };
      res.once('finish', ended).once('close', ended);
      const next = (error?: unknown) => {
        if (!settle()) return;
        if (error !== undefined && error !== 'route' && error !== 'router') reject(error);
        else resolve(undefined);
      };
      // A failure after the middleware answered or called next() has no response left to become: it is logged.
      const fail = (error: unknown) => {
        if (settled) report(request[CONTEXT].logger ?? defaultLogger(), request, 'an Express middleware failed after it answered or called next()', error);
        else next(error ?? new Error('Express middleware failed'));
      };
      try {
        const returned = this.#fn(req, res, next);
        if (isPromiseLike(returned)) returned.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
      if (!settled && res.writableEnded) ended();
    });
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** What a middleware that answered by itself sent: already written, so the writer leaves it alone. */
function answeredBy(res: ServerResponse): Response {
  const response = new Response(undefined, { status: res.statusCode });
  for (const name of res.getHeaderNames()) {
    const value = res.getHeader(name)!;
    response.headers.set(name, typeof value === 'number' ? String(value) : value);
  }
  return response;
}
