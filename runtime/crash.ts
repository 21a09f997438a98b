import { inspect } from 'node:util';
import { closeGracefully } from '../framework/index';
import type { Server } from '../framework/internal';
import { messages } from './messages';
import type { RunLog } from './run-log';

/**
 * How long requests in flight get to finish after the error, as Fastify's close-with-grace allows them: most
 * were not touched by it. What is still running then is cut.
 */
export const CRASH_GRACE_MS = 1_000;
/** Exit code after an error nothing handled (as Node's own: 1). */
export const CRASH_EXIT_CODE = 1;

/**
 * Ends the process after an error nothing handled: a throwing timer or event callback, or a promise
 * rejected without a handler (Node 20 raises both as `uncaughtException`). As Node's documentation says,
 * the process state is unknown after such an error, so it is not resumed: the server stops accepting, requests
 * in flight get {@link CRASH_GRACE_MS} to finish and are cut after it, the access lines (batched every 20 ms)
 * are written, one line `trellis: ...` and the stack go to stderr, and the process exits 1. Under `--workers` the primary starts
 * another worker; otherwise a supervisor (systemd, Docker, pm2) restarts it.
 *
 * @example
 * ```ts
 * const server = await listen(listener, options);
 * exitOnUncaughtError(server, log);
 * ```
 */
export function exitOnUncaughtError(server: Server, log: RunLog): void {
  let crashing = false;
  process.on('uncaughtException', (error, origin) => {
    const report = `trellis: ${messages.run.uncaught(origin === 'unhandledRejection')}\n${describe(error)}\n`;
    if (crashing) {
      // A second error while the first one ends the process: say so and end it now.
      process.stderr.write(report);
      return log.flush(() => process.exit(CRASH_EXIT_CODE));
    }
    crashing = true;
    log.flush(); // the lines of requests answered before the error come first
    process.stderr.write(report);
    // Cut sockets close in a later turn of the event loop: their 499 lines are written 50 ms on.
    void closeGracefully(server, CRASH_GRACE_MS).then(() => setTimeout(() => log.flush(() => process.exit(CRASH_EXIT_CODE)), 50));
  });
}

function describe(error: unknown): string {
  return error instanceof Error && error.stack ? error.stack : inspect(error);
}
