import { Middleware, type CallNext, type Request, type Response } from 'trellis';

/**
 * Adds `X-Process-Time` (milliseconds, e.g. `0.412ms`) to every response. Global because config.yaml lists
 * `timing` under `middleware:`.
 */
export class Timing extends Middleware {
  async dispatch(request: Request, callNext: CallNext): Promise<Response> {
    const start = performance.now();
    const response = await callNext(request);
    response.headers.set('X-Process-Time', `${(performance.now() - start).toFixed(3)}ms`);
    return response;
  }
}
