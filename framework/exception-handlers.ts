import { handlerStatus } from './exception-status';
import { HTTPException, defaultMessage } from './http-exception';
import type { Class } from './core/types';
import type { Request } from './request';
import { errorResponse } from './error-envelope';
import { Response, isStatus } from './response';
import { toResponse } from './result';

import type { Logger } from './core/logger';

export type { Logger, LogFn } from './core/logger';

export type ExceptionHandler<E = unknown> = (error: E, request: Request) => unknown;

/**
 * Maps errors to responses: registered handlers first (nearest class wins), then `HTTPException`, then any
 * error with a numeric `status`/`statusCode` from 400 to 599; anything else is a 500 with nothing leaked.
 */
export class ExceptionHandlers {
  readonly #handlers: Array<[Class, ExceptionHandler]> = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  add<E>(errorClass: Class<E>, handler: ExceptionHandler<E>): void {
    this.#handlers.push([errorClass, handler as ExceptionHandler]);
  }

  /**
   * The status the handler registered for the class named `className` answers (see {@link handlerStatus}), for
   * the OpenAPI document, which knows the classes a route throws by name only. Undefined when no handler is
   * registered for a class of that name or its status cannot be read.
   */
  answeredStatus(className: string): number | undefined {
    const found = [...this.#handlers].reverse().find(([cls]) => cls.name === className);
    return found && handlerStatus(found[1]);
  }

  /** Synchronous when no registered handler takes the error: a 422 or a 404 answers without a microtask. */
  handle(error: unknown, request: Request): Response | Promise<Response> {
    const handler = this.#find(error);
    return handler ? this.#handled(handler, error, request) : this.#fallback(error, request);
  }

  async #handled(handler: ExceptionHandler, error: unknown, request: Request): Promise<Response> {
    try {
      return toResponse(await handler(error, request));
    } catch (handlerError) {
      return this.#fallback(handlerError, request);
    }
  }

  #find(error: unknown): ExceptionHandler | undefined {
    if (this.#handlers.length === 0 || !(error instanceof Object)) return undefined;
    // The nearest registered class in the error's prototype chain wins, whatever the registration order.
    for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
      const found = this.#handlers.find(([cls]) => cls.prototype === proto);
      if (found) return found[1];
    }
    return undefined;
  }

  #fallback(error: unknown, request: Request): Response {
    if (error instanceof HTTPException && isStatus(error.status)) {
      return errorResponse(error.status, error.message, error.headers, error.extra);
    }
    const status = statusOf(error);
    if (status !== undefined && status < 500) {
      // http-errors (Express, body-parser, send) mark messages unfit for clients with `expose: false`.
      const exposed = error instanceof Error && error.message && (error as { expose?: unknown }).expose !== false;
      const message = exposed ? error.message : defaultMessage(status);
      return errorResponse(status, message);
    }
    if (status !== undefined) {
      // A library's 5xx message may carry hosts or paths: log it, send only the reason phrase.
      this.#logger.error({ err: error, reqId: request.id }, `${request.method} ${request.path} failed`);
      return errorResponse(status, defaultMessage(status));
    }
    this.#logger.error({ err: error, reqId: request.id }, `${request.method} ${request.path} failed`);
    return errorResponse(500, 'Internal Server Error');
  }
}

function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Object)) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599 ? (value as number) : undefined;
}
