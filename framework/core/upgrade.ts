import type { Duplex } from 'node:stream';

/**
 * What an upgrade request (`Upgrade: websocket`) carries through the pipeline: the socket and the bytes read past
 * its headers. The route that takes upgrades (a WebSocket gateway) sets `accept` and answers 101; the listener then
 * calls it once the pipeline has returned, or writes whatever else the pipeline answered (a guard's 401) on the
 * socket and closes it.
 */
export interface PendingUpgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
  accept?: () => void;
}
