// Leaf: the logger shape the app, requests and the writer share. Imports nothing.

/**
 * One level of a {@link Logger}: fields and a message (`log.info({ taskId }, 'task loaded')`), or a message alone.
 * Errors go in the fields, as `err`: `log.error({ err }, 'import failed')`.
 */
export interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}

/**
 * What the app logs through (`AppOptions.logger`, `request.log`): pino's method shape, so a pino logger fits as
 * it is. Unexpected errors go to `error({ err, reqId }, message)`; `child(bindings)` makes a logger whose lines
 * carry `bindings` (`request.log` is `child({ reqId })`).
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const app = new BaseRouter({ logger: pino({ level: 'warn' }) });
 * ```
 */
export interface Logger {
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}
