import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Class } from './metadata';
import type { Request } from './request';
import { Response } from './response';

/** Calls the rest of the pipeline; always resolves to a response (errors downstream are already responses). */
export type CallNext = (request: Request) => Promise<Response>;

/** Express/Connect middleware, as written for `app.use` (cors, helmet, morgan, ...). */
export type ExpressMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export type MiddlewareLike = Middleware | Class<Middleware> | ExpressMiddleware;

/**
 * A step around request handling. `callNext(request)` runs the rest and resolves to its response, which the
 * middleware may change; or the middleware returns its own response without calling it.
 *
 * @example
 * ```ts
 * class Timing extends Middleware {
 *   async dispatch(request: Request, callNext: CallNext) {
 *     const start = performance.now();
 *     const response = await callNext(request);
 *     response.headers.set('x-response-time', `${(performance.now() - start).toFixed(1)}ms`);
 *     return response;
 *   }
 * }
 * app.addMiddleware(Timing);
 * ```
 */
export abstract class Middleware {
  abstract dispatch(request: Request, callNext: CallNext): Promise<Response> | Response;
}

/**
 * Runs Express-style `(req, res, next)` middleware inside the trellis pipeline, globally or per router.
 * The request and response get Express's prototypes first, as in an Express app, so `req.get()` etc. work.
 *
 * @example
 * ```ts
 * import cors from 'cors';
 * app.addMiddleware(cors());   // a plain function is wrapped in this adapter
 * ```
 */
export class ExpressMiddlewareAdapter extends Middleware {
  readonly #fn: ExpressMiddleware;
  readonly #prepare: (req: IncomingMessage, res: ServerResponse) => void;

  constructor(fn: ExpressMiddleware, prepare: (req: IncomingMessage, res: ServerResponse) => void = () => {}) {
    super();
    this.#fn = fn;
    this.#prepare = prepare;
  }

  dispatch(request: Request, callNext: CallNext): Promise<Response> {
    const { raw: req, rawResponse: res } = request;
    this.#prepare(req, res);
    // For a response the middleware writes by itself.
    res.setHeader('x-request-id', request.id);
    res.setHeader('x-content-type-options', 'nosniff');
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const ended = () => {
        if (settled) return;
        settled = true;
        res.off('finish', ended).off('close', ended);
        // The middleware answered by itself (e.g. a CORS preflight): report what it sent.
        resolve(new Response(undefined, { status: res.statusCode }));
      };
      res.once('finish', ended).once('close', ended);
      const next = (error?: unknown) => {
        if (settled) return;
        settled = true;
        res.off('finish', ended).off('close', ended);
        if (error !== undefined && error !== 'route' && error !== 'router') reject(error);
        else resolve(callNext(request));
      };
      try {
        this.#fn(req, res, next);
      } catch (error) {
        next(error ?? new Error('Middleware threw'));
      }
      if (!settled && res.writableEnded) ended();
    });
  }
}

export function isMiddlewareClass(value: unknown): value is Class<Middleware> {
  return typeof value === 'function' && value.prototype instanceof Middleware;
}

/**
 * Chains middleware around `endpoint`. Every step is guarded: an error a middleware throws becomes a response
 * through `onError`, so `callNext` never rejects.
 */
export function compose(
  middleware: Middleware[],
  endpoint: CallNext,
  onError: (error: unknown, request: Request) => Response | Promise<Response>,
): CallNext {
  let next = endpoint;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const step = middleware[i];
    const downstream = next;
    next = async (request) => {
      try {
        return await step.dispatch(request, downstream);
      } catch (error) {
        return onError(error, request);
      }
    };
  }
  return next;
}
