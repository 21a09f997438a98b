import type { Logger } from './core/logger';
import type { Request } from './request';

/** Logs a failure of `request` as `{ err, reqId }`; a logger that throws cannot break the request path. */
export function report(logger: Logger, request: Request, what: string, error: unknown): void {
  try {
    logger.error({ err: error, reqId: request.id }, `${request.method} ${request.path}: ${what}`);
  } catch {
    // Nowhere left to report it.
  }
}
