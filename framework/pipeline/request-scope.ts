import type { Logger } from '../core/logger';
import { errorResponse } from '../error-envelope';
import type { RequestOutcome } from '../injection/outcome';
import { report } from '../report';
import type { Request } from '../request';
import { Response } from '../response';
import { RESPONSE } from '../symbols';
import { isThenable } from '../core/thenable';

type OnError = (error: unknown, request: Request) => Response | Promise<Response>;

/**
 * The request-scoped instances of one request: made by the route's dependencies, given to its handler, torn
 * down once its response is ready (`onRequestEnd(outcome)`, newest first, each once), then dropped with it.
 */
export class RequestScope {
  /** What each step of the route's plan gave this request. */
  readonly values: unknown[];
  /** What was made for this request (and values standing for request-scoped providers), oldest first. */
  readonly created: unknown[] = [];
  #error: unknown;
  #failed = false;
  readonly #request: Request;
  readonly #onError: OnError;
  readonly #logger: Logger;

  constructor(size: number, request: Request, onError: OnError, logger: Logger) {
    this.values = new Array(size);
    this.#request = request;
    this.#onError = onError;
    this.#logger = logger;
  }

  /** The route's error responder, remembering the error for the outcome. */
  readonly fail = (error: unknown, request: Request): Response | Promise<Response> => {
    this.#failed = true;
    this.#error = error;
    return this.#onError(error, request);
  };

  /** Runs the teardowns once `response` is ready; a teardown that throws turns an ok response into a 500. */
  finish(response: Response | Promise<Response>): Response | Promise<Response> {
    if (response instanceof Response) return this.#end(response);
    return response.then((ready) => this.#end(ready));
  }

  #end(response: Response): Response | Promise<Response> {
    // Nothing to tear down (the usual case): no outcome, no closure.
    let last = this.created.length - 1;
    while (last >= 0 && typeof (this.created[last] as { onRequestEnd?: unknown } | null)?.onRequestEnd !== 'function') last--;
    if (last < 0) return response;
    const res = this.#request[RESPONSE];
    const aborted = res.destroyed && !res.writableEnded;
    const outcome: RequestOutcome = { ok: !this.#failed && !aborted && response.status < 400, status: response.status, aborted };
    if (this.#failed) outcome.error = this.#error;
    let broken = false;
    const broke = (error: unknown) => {
      broken = true;
      report(this.#logger, this.#request, 'a request-scoped teardown (onRequestEnd) failed', error);
    };
    const answer = () => (broken && outcome.ok ? errorResponse(500, 'Internal Server Error') : response);
    const tearDown = (from: number): void | Promise<void> => {
      for (let i = from; i >= 0; i--) {
        const instance = this.created[i] as { onRequestEnd?: (outcome: RequestOutcome) => unknown } | null | undefined;
        if (typeof instance?.onRequestEnd !== 'function') continue;
        let ended: unknown;
        try {
          ended = instance.onRequestEnd(outcome);
        } catch (error) {
          broke(error);
          continue;
        }
        if (isThenable(ended)) {
          return Promise.resolve(ended).then(() => tearDown(i - 1), (error: unknown) => {
            broke(error);
            return tearDown(i - 1);
          });
        }
      }
    };
    const done = tearDown(last);
    return done ? done.then(answer) : answer();
  }
}
