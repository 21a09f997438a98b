import { connect, type Socket } from 'node:net';
import { openServerConnections, sampler, treeRssMiB } from '../support/process-stats';
import type { RunningApp } from '../support/sample-server';
import { sleep, timedRequest } from '../support/timed-request';

export interface SlowReaderFigures {
  clients: number;
  responseBytes: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  /** Server-side connections still open when the wait ended. */
  stillOpen: number;
  /** Seconds from sending the requests until the server had closed every connection; null if it had not. */
  allClosedAfterSeconds: number | null;
  waitedSeconds: number;
}

/** How long to wait for the server to close stalled connections: `RELIABILITY_SLOW_READER_WAIT_S`, default 90 s. */
export const slowReaderWaitSeconds = () => Number(process.env.RELIABILITY_SLOW_READER_WAIT_S ?? 90);

/**
 * `clients` sockets ask for `GET /hostile/big` (~5 MB of JSON) and never read a byte. The server's RSS (every
 * process of the tree) is sampled every 100 ms; the test waits up to `waitSeconds` for the server to close
 * every such connection (a write timeout would), then closes the clients.
 */
export async function slowReaders(app: RunningApp, clients = 100, waitSeconds = slowReaderWaitSeconds()): Promise<SlowReaderFigures> {
  const pid = app.child.pid!;
  const warm = await timedRequest(app.port, { method: 'GET', path: '/hostile/big' }, 30_000);
  const rssBeforeMiB = treeRssMiB(pid);
  const rss = sampler(() => treeRssMiB(pid));
  const sockets: Socket[] = [];
  const started = performance.now();
  for (let i = 0; i < clients; i++) {
    const socket = connect(app.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.pause(); // never read: the response piles up in the kernel's buffers, then in the server
    socket.write('GET /hostile/big HTTP/1.1\r\nHost: reliability\r\n\r\n');
    sockets.push(socket);
  }
  await sleep(1_000);
  let stillOpen = openServerConnections(app.port);
  while (stillOpen > 0 && performance.now() - started < waitSeconds * 1000) {
    await sleep(500);
    stillOpen = openServerConnections(app.port);
  }
  const elapsed = (performance.now() - started) / 1000;
  const rssPeakMiB = rss.stop();
  for (const socket of sockets) socket.destroy();
  return {
    clients,
    responseBytes: warm.bytes,
    rssBeforeMiB,
    rssPeakMiB,
    stillOpen,
    allClosedAfterSeconds: stillOpen === 0 ? elapsed : null,
    waitedSeconds: waitSeconds,
  };
}
