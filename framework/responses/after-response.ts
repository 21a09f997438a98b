import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Destroys `stream` once the request's response is done, whatever was sent. A stream that was sent has
 * ended by then (nothing to do); one whose response a middleware replaced was never read, and would keep
 * its file descriptor or its source open otherwise.
 */
export function destroyAfterResponse(res: ServerResponse, stream: Readable): void {
  if (res.closed) stream.destroy();
  else res.once('close', () => stream.destroy());
}
