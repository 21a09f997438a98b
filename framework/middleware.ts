import type { ExpressMiddleware } from './core/express-middleware';
import type { Class } from './core/types';
import { settle } from './pipeline/settle';
import type { Request } from './request';
import { Response } from './response';
import type { SecurityDeclaration } from './security';
import { SYNC_NEXT } from './symbols';

/**
 * Calls the rest of the pipeline; always resolves to a response (errors downstream are already responses).
 *
 * @example
 * ```ts
 * async dispatch(request: Request, callNext: CallNext) {
 *   const response = await callNext(request);
 *   response.headers.set('x-served-by', 'trellis');
 *   return response;
 * }
 * ```
 */
export type CallNext = (request: Request) => Promise<Response>;

/**
 * A step of the compiled pipeline (internal): the response itself when it is ready at once (a plain handler's
 * value, a middleware that answered without waiting), else a promise of it; never rejects. Middleware still
 * gets a `callNext` that returns a promise.
 */
export type Step = (request: Request) => Response | Promise<Response>;

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
 *
 * A guard declares the credentials it checks as `static readonly security` (see {@link bearerAuth},
 * `apiKeyHeader`, `basicAuth`): the routes behind it (app-wide, a router's `addMiddleware`, `@Use`) are
 * documented with that scheme and a 401. The class is read, never built, for the document.
 *
 * @example
 * ```ts
 * class RequireToken extends Middleware {
 *   static readonly security = bearerAuth();
 *   async dispatch(request: Request, callNext: CallNext) {
 *     if (request.headers.authorization !== `Bearer ${TOKEN}`) {
 *       return new JSONResponse({ error: 'Unauthorized' }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
 *     }
 *     return callNext(request);
 *   }
 * }
 * ```
 */
export abstract class Middleware {
  /** The security scheme(s) this middleware enforces, for the OpenAPI document; none by default. */
  static readonly security?: SecurityDeclaration;

  abstract dispatch(request: Request, callNext: CallNext): Promise<Response> | Response;
}

/** Whether `value` is a class extending {@link Middleware} (which the app builds, injecting its services). */
export function isMiddlewareClass(value: unknown): value is Class<Middleware> {
  return typeof value === 'function' && value.prototype instanceof Middleware;
}

/**
 * Chains middleware around `endpoint`. Every step is guarded: an error a middleware throws becomes a response
 * through `onError`, so `callNext` never rejects; a response a middleware made is settled (see `settle`)
 * before the middleware around it sees it.
 */
export function compose(
  middleware: Middleware[],
  endpoint: Step,
  onError: (error: unknown, request: Request) => Response | Promise<Response>,
): Step {
  let next = endpoint;
  for (let i = middleware.length - 1; i >= 0; i--) next = guarded(middleware[i], next, onError);
  return next;
}

// One step, without `async`: a middleware's promise is followed by one `then`, not an `await` per value.
function guarded(
  step: Middleware,
  downstream: Step,
  onError: (error: unknown, request: Request) => Response | Promise<Response>,
): Step {
  const callNext: CallNext = (step as { [SYNC_NEXT]?: boolean })[SYNC_NEXT]
    ? (downstream as unknown as CallNext)
    : (request) => {
        const response = downstream(request);
        return response instanceof Response ? Promise.resolve(response) : response;
      };
  const fail = (error: unknown, request: Request): Promise<Response> => {
    try {
      return Promise.resolve(onError(error, request));
    } catch (failure) {
      return Promise.reject(failure);
    }
  };
  const settled = (response: Response, request: Request): Response | Promise<Response> => {
    try {
      const result = settle(response, request);
      return result === response ? result : Promise.resolve(result).then(undefined, (error: unknown) => fail(error, request));
    } catch (error) {
      return fail(error, request);
    }
  };
  return (request) => {
    let result: Response | Promise<Response>;
    try {
      result = step.dispatch(request, callNext);
    } catch (error) {
      return fail(error, request);
    }
    if (!(result instanceof Response)) {
      // A promise (or any thenable; anything else fails in `settle` as it would after an `await`).
      return Promise.resolve(result).then(
        (response: Response) => settled(response, request),
        (error: unknown) => fail(error, request),
      );
    }
    return settled(result, request);
  };
}
