import type { Logger } from '../core/logger';
import { errorResponse } from '../error-envelope';
import { HTTPException } from '../http-exception';
import { compose, type Middleware } from '../middleware';
import { report } from '../report';
import type { Request } from '../request';
import { Response } from '../response';

/** Runs the guards of one message: undefined when they let it through, else their answer (a 401, a 403, a 429). */
export type GuardChain = (request: Request) => Promise<Response | undefined>;

// What the end of the chain returns: the guards let the message through.
const PASSED = new Response(undefined, { status: 204 });

/**
 * Compiles guards into one check of a message's request: each middleware's `dispatch` runs as on a route; the
 * message passes when the chain reaches its end and what comes back is no refusal (a guard may replace the
 * answer on the way out). An error a guard throws is its `HTTPException`'s answer, or a 500 logged.
 *
 * @example
 * ```ts
 * const check = guardChain([jwtAuth({ secret })], logger);
 * const refusal = await check(request); // undefined: run the handler
 * ```
 */
export function guardChain(guards: Middleware[], logger: Logger): GuardChain {
  const reached = new WeakSet<Request>();
  const onError = (error: unknown, request: Request): Response => {
    if (error instanceof HTTPException) return errorResponse(error.status, error.message, error.headers, error.extra);
    report(logger, request, 'a WebSocket guard failed', error);
    return errorResponse(500, 'Internal Server Error');
  };
  const chain = compose(guards, (request) => {
    reached.add(request);
    return PASSED;
  }, onError);
  const decide = (request: Request, response: Response): Response | undefined =>
    reached.has(request) && (response === PASSED || response.status < 400) ? undefined : response;
  return (request) => {
    const response = chain(request);
    return response instanceof Response ? Promise.resolve(decide(request, response)) : response.then((ready) => decide(request, ready));
  };
}
