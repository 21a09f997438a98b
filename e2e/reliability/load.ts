import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';

export interface Shot {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** A request the server should refuse with a 4xx. */
  malformed: boolean;
}

export interface Outcome {
  status: number;
  /** Set when the request failed at the connection level. */
  error?: string;
  ms: number;
}

/** One request on a keep-alive agent; never rejects. */
export function send(port: number, agent: Agent, shot: Shot): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method: shot.method, path: shot.path, agent, headers: shot.headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', (error) => resolve({ status: 0, error: error.message, ms: performance.now() - started }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, error: error.message, ms: performance.now() - started }));
    req.end(shot.body);
  });
}

/** Runs `total` requests at `concurrency`, calling `onProgress` after each; resolves with every outcome. */
export async function drive(
  port: number,
  total: number,
  concurrency: number,
  next: (i: number) => Shot,
  onProgress: (done: number) => void = () => {},
): Promise<Array<Outcome & { malformed: boolean }>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const outcomes: Array<Outcome & { malformed: boolean }> = new Array(total);
  let issued = 0;
  let done = 0;
  const worker = async () => {
    while (issued < total) {
      const i = issued++;
      const shot = next(i);
      outcomes[i] = { ...(await send(port, agent, shot)), malformed: shot.malformed };
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return outcomes;
}

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) / 1024;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
