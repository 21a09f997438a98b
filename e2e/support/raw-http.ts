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

/** A multipart body from parts; `close: false` leaves out the closing boundary (truncated). */
export function multipart(
  boundary: string,
  parts: Array<{ name: string; filename?: string; content: string | Buffer; type?: string }>,
  close = true,
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
