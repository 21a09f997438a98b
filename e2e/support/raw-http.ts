import { connect } from 'node:net';

/**
 * Sends `payload` as is on a new socket and resolves with the status of the first response line, or 0 when the
 * server closed the socket without answering (an accepted outcome for garbage input).
 */
export function rawStatus(port: number, payload: string | Buffer, waitMs = 5_000): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve(match ? Number(match[1]) : 0);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n/.test(text)) done();
    });
    socket.on('close', done).on('error', () => {});
    socket.write(payload);
  });
}
