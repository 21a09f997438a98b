import type { Logger } from './core/logger';

/** Where {@link createLogger}'s lines go: anything with a `write(line)` (a stream, pino's `destination()`). */
export interface LogDestination {
  write(line: string): unknown;
}

/**
 * How {@link createLogger} writes: the level, JSON or pretty lines, and where they go.
 *
 * @example
 * ```ts
 * const options: LoggerOptions = { level: 'debug', pretty: false, destination: process.stderr };
 * ```
 */
export interface LoggerOptions {
  /** The lowest level written (`fatal`, `error`, `warn`, `info`, `debug`, `trace`, or `silent`): `info` by default. */
  level?: string;
  /** Lines for people (pino-pretty, one line each, local time) instead of JSON: by default when stdout is a terminal. */
  pretty?: boolean;
  /** Where the lines go: `process.stdout` by default, in order with what else the process prints there. */
  destination?: LogDestination;
}

/**
 * A pino logger as trellis sets one up: JSON lines (`level`, epoch `time`, fields, `msg`; no `pid` or `hostname`)
 * when stdout is not a terminal, pino-pretty's lines on a terminal. Errors logged as `{ err }` get pino's error
 * serializer (type, message, stack, code, causes). An app without `AppOptions.logger` uses one of these, made on
 * first need. Typed as the {@link Logger} it is: trellis's types do not pull in pino's (which need `esModuleInterop`).
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ logger: createLogger({ level: 'debug' }) });
 * // in a handler: request.log.debug({ taskId }, 'task loaded') -> {"level":20,...,"reqId":"…","taskId":1,"msg":"task loaded"}
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  // Loaded on first use: an app given its own logger never loads pino.
  const pino = require('pino') as typeof import('pino');
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  const out = options.destination ?? process.stdout;
  return pino({ level: options.level ?? 'info', base: null }, pretty ? prettyDestination(out) : out);
}

/** Writes each JSON line pino makes as pino-pretty renders it, in order with what else goes to `out`. */
function prettyDestination(out: LogDestination): LogDestination {
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  // pino-pretty colours when stdout supports it; another destination gets plain text.
  const colors = out === process.stdout ? {} : { colorize: false };
  const prettify = prettyFactory({ singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ...colors });
  return { write: (line: string) => out.write(prettify(line)) };
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
let shared: Logger | undefined;

/**
 * The logger of apps given none: {@link createLogger}'s defaults, one per process, made when something is first
 * logged (an app that logs nothing never loads pino).
 */
export function defaultLogger(): Logger {
  return deferredLogger(() => (shared ??= createLogger()));
}

/**
 * A {@link Logger} whose real logger `make` returns when it is first used: a line logged, a child made, or any
 * other property of it read or set (a pino logger's `level`); until then nothing of it is made or loaded.
 *
 * @example
 * ```ts
 * const logger = deferredLogger(() => createLogger({ level: 'debug' })); // pino not loaded yet
 * logger.info('ready'); // now it is
 * ```
 */
export function deferredLogger(make: () => Logger): Logger {
  let real: Logger | undefined;
  const made = () => (real ??= make());
  const forward = (level: (typeof LEVELS)[number]) => (...args: unknown[]) => {
    const logger = made();
    Reflect.apply(logger[level], logger, args);
  };
  const own = new Map<PropertyKey, unknown>(LEVELS.map((level) => [level, forward(level)]));
  own.set('child', (bindings: Record<string, unknown>) => made().child(bindings));
  return new Proxy({} as Logger, {
    get: (_target, key) => (own.has(key) ? own.get(key) : Reflect.get(made(), key)),
    set: (_target, key, value) => Reflect.set(made(), key, value),
  });
}
