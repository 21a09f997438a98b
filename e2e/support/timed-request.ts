import { Agent, request } from 'node:http';

export interface TimedOutcome {
  /** 0 when no response came. */
  status: number;
  /** The connection-level failure (`ECONNREFUSED`, `ECONNRESET`, `socket hang up`, ...) or `timeout`. */
  error?: string;
  ms: number;
  /** Response body size in bytes. */
  bytes: number;
  /** The first 64 KiB of the response body. */
  text: string;
}

export interface TimedShot {
  method: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string | number>;
}

/**
 * One request that always settles: with the response, a connection error, or `timeout` after `timeoutMs`
 * (the request is then destroyed). Without an agent, each request has its own connection, closed afterwards.
 */
export function timedRequest(port: number, shot: TimedShot, timeoutMs: number, agent?: Agent): Promise<TimedOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let bytes = 0;
    let text = '';
    const settle = (status: number, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, error, ms: performance.now() - started, bytes, text });
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: shot.method,
        path: shot.path,
        agent: agent ?? false,
        headers: { ...(agent ? {} : { connection: 'close' }), ...shot.headers },
      },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (bytes < 65_536) text += chunk.subarray(0, 65_536 - bytes).toString('utf8');
          bytes += chunk.length;
        });
        res.on('end', () => settle(res.statusCode ?? 0));
        res.on('error', (error: NodeJS.ErrnoException) => settle(0, error.code ?? error.message));
        res.on('close', () => settle(res.complete ? (res.statusCode ?? 0) : 0, res.complete ? undefined : 'aborted'));
      },
    );
    const timer = setTimeout(() => {
      settle(0, 'timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => settle(0, error.code ?? error.message));
    req.end(shot.body);
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
