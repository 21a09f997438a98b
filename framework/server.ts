import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from './app';

export type { Server };

export interface ListenOptions {
  /** `localhost` by default. */
  host?: string;
  /** 8000 by default; 0 picks a free port (read it from `server.address()`). */
  port?: number;
}

/** Starts a Node HTTP server on `listener`; resolves once it accepts connections. */
export function listen(listener: RequestListener, options: ListenOptions): Promise<Server> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, options.host ?? 'localhost', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** `http://host:port` of a listening server. */
export function serverUrl(server: Server): string {
  const { address, port, family } = server.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}
