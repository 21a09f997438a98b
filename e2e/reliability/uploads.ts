import { sampler, treeRssMiB } from '../support/process-stats';
import type { RunningApp } from '../support/sample-server';
import { timedRequest } from '../support/timed-request';

const MIB = 1024 * 1024;
const BOUNDARY = 'reliability-boundary-7MA4YWxkTrZu0gW';

/** A multipart form with one file part, `file`, of `bytes` bytes. */
function form(bytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.alloc(bytes, 0x61),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

export interface UploadFigures {
  uploads: number;
  fileMiB: number;
  statuses: string;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  seconds: number;
}

/** `count` concurrent uploads of a `fileMiB` MiB file to `POST /upload/file`, RSS sampled every 100 ms. */
export async function uploads(app: RunningApp, count = 20, fileMiB = 9, timeoutMs = 60_000): Promise<UploadFigures> {
  const pid = app.child.pid!;
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  await timedRequest(app.port, { method: 'POST', path: '/upload/file', body: form(1024), headers }, 10_000); // loads the parser
  const body = form(fileMiB * MIB);
  const rssBeforeMiB = treeRssMiB(pid);
  const rss = sampler(() => treeRssMiB(pid));
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, () => timedRequest(app.port, { method: 'POST', path: '/upload/file', body, headers }, timeoutMs)),
  );
  const seconds = (performance.now() - started) / 1000;
  const rssPeakMiB = rss.stop();
  const tally = new Map<string, number>();
  for (const o of outcomes) {
    const key = o.status ? String(o.status) : (o.error ?? 'no answer');
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return {
    uploads: count,
    fileMiB,
    statuses: [...tally].map(([key, n]) => `${n} x ${key}`).join(', '),
    rssBeforeMiB,
    rssPeakMiB,
    seconds,
  };
}
