import { closeGracefully } from '../framework/index';
import type { Server, Stoppable } from '../framework/internal';
import { ProjectError } from './project-error';
import { messages } from './messages';
import type { RunLog } from './run-log';

/** How long requests in flight may take to finish after SIGINT/SIGTERM before their connections are cut. */
export const GRACE_MS = 10_000;
/** Overrides {@link GRACE_MS} (milliseconds), e.g. for tests or a platform that kills sooner. */
export const GRACE_ENV = 'TRELLIS_SHUTDOWN_GRACE_MS';

/** The grace period: `$TRELLIS_SHUTDOWN_GRACE_MS` when set (a whole number of ms), else {@link GRACE_MS}. */
export function gracePeriod(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[GRACE_ENV];
  if (text === undefined || text === '') return GRACE_MS;
  if (!/^\d{1,9}$/.test(text)) throw new ProjectError(messages.run.badGrace(GRACE_ENV, text));
  return Number(text);
}

/** What a parent process (reload supervisor, cluster primary) sends to stop a serving child gracefully. */
export interface StopMessage {
  trellis: 'stop';
}

/** How a stop ended: every request finished, or the ones still running were cut off (grace period over, second signal). */
export type StopOutcome = 'finished' | 'grace-expired' | 'interrupted';

/**
 * Stops the server on SIGINT or SIGTERM (or a {@link StopMessage} from a parent): `/readyz` answers 503 at
 * once (for `delayMs`, config.yaml's `server.shutdown_delay`, the server still takes connections), then no
 * new connections, idle keep-alive connections closed, requests in flight finish, then the app's shutdown
 * hooks run (all within `graceMs`), logs flushed. A second signal cuts every connection at once. Resolves
 * once the server is closed and the hooks ran.
 */
export function stopOnSignals(server: Server, app: Stoppable, log: RunLog, say: (line: string) => void, graceMs = GRACE_MS, delayMs = 0): Promise<StopOutcome> {
  return new Promise((resolve) => {
    let skipDelay = () => {};
    let stopping = false;
    let signalled = false;
    let cut = false;
    const stop = (signal: NodeJS.Signals | 'stop') => {
      // A terminal's Ctrl-C reaches the whole process group: a parent's stop message and the signal itself
      // ask the same thing, in either order. Only a second signal cuts every connection.
      const repeated = signal !== 'stop' && signalled;
      if (signal !== 'stop') signalled = true;
      if (stopping) {
        if (repeated) {
          cut = true;
          skipDelay();
          server.closeAllConnections();
        }
        return;
      }
      stopping = true;
      log.flush(); // access lines so far come before the shutdown line
      say(messages.run.shuttingDown(signal === 'stop' ? 'SIGTERM' : signal));
      // Not ready from now on; with a delay, connections are still taken meanwhile, so load balancers see
      // /readyz fail and stop sending before the port closes.
      app.drain();
      const delayed = new Promise<void>((go) => {
        const timer = setTimeout(go, delayMs);
        skipDelay = () => {
          clearTimeout(timer);
          go();
        };
      });
      void delayed.then(() => closeGracefully(server, graceMs, app)).then((finished) => {
        process.off('SIGINT', stop).off('SIGTERM', stop).off('message', onMessage);
        const done = () =>
          log.flush(() => {
            say(messages.run.stopped);
            resolve(cut ? 'interrupted' : finished ? 'finished' : 'grace-expired');
          });
        if (finished) return done();
        // Connections cut just now close in a later turn of the event loop, then the server does: wait for it,
        // so the cut requests' lines (499) are written before the last line.
        const timer = setTimeout(done, 1_000);
        server.once('close', () => {
          clearTimeout(timer);
          done();
        });
      });
    };
    const onMessage = (message: StopMessage) => message?.trellis === 'stop' && stop('stop');
    process.on('SIGINT', stop).on('SIGTERM', stop).on('message', onMessage);
  });
}
