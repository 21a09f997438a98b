import type { Request } from '../request';
import { trimTrailingSlashes } from '../routing/path';

/**
 * Where the app is mounted for this request: `''` when it serves requests itself, Express's `req.baseUrl`
 * (without a trailing slash) when it is mounted in an Express app. It comes from the request: Express matches
 * a mount path without case and a pattern mount takes any value, so what is kept per mount path must stay
 * bounded.
 */
export function mountBase(request: Request): string {
  const base = (request.raw as { baseUrl?: unknown }).baseUrl;
  return typeof base === 'string' ? trimTrailingSlashes(base) : '';
}
