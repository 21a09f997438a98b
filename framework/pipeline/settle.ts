import type { Request } from '../request';
import type { Response } from '../response';
import { PREPARED } from '../symbols';

/**
 * Runs `response.prepare(request)` the first time the pipeline sees `response` (from a handler, a middleware
 * or an exception handler), so that whoever sees it next reads its real status and headers. Synchronous for
 * responses with nothing to prepare; throws or rejects with what `prepare` throws.
 */
export function settle(response: Response, request: Request): Response | Promise<Response> {
  if (response[PREPARED]) return response;
  response[PREPARED] = true;
  const pending = response.prepare(request);
  return pending ? pending.then(() => response) : response;
}
