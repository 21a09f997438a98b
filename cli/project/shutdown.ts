import { closeGracefully, type Server } from '../../framework/server';
import { messages } from '../messages';
import type { Pino } from './access-log';

/** How long requests in flight may take to finish after SIGINT/SIGTERM before their connections are cut. */
export const GRACE_MS = 10_000;

/** What a parent process (reload supervisor, cluster primary) sends to stop a serving child gracefully. */
export interface StopMessage {
  trellis: 'stop';
}

/**
 * Stops the server on SIGINT or SIGTERM (or a {@link StopMessage} from a parent): no new connections,
 * idle keep-alive connections closed, requests in flight finish (up to {@link GRACE_MS}), logs flushed.
 * A second signal cuts every connection at once. Resolves once the server is closed.
 */
export function stopOnSignals(server: Server, log: Pino, say: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals | 'stop') => {
      if (stopping) {
        // A parent's request repeats what a terminal's Ctrl-C already asked (both reach the whole group).
        if (signal !== 'stop') server.closeAllConnections();
        return;
      }
      stopping = true;
      log.flush(); // access lines so far come before the shutdown line
      say(messages.run.shuttingDown(signal === 'stop' ? 'SIGTERM' : signal));
      void closeGracefully(server, GRACE_MS).then(() => {
        process.off('SIGINT', stop).off('SIGTERM', stop).off('message', onMessage);
        log.flush(() => {
          say(messages.run.stopped);
          resolve();
        });
      });
    };
    const onMessage = (message: StopMessage) => message?.trellis === 'stop' && stop('stop');
    process.on('SIGINT', stop).on('SIGTERM', stop).on('message', onMessage);
  });
}
