import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { WebSocket } from 'ws';
import type { RequestListener } from '../core/listener';
import { listen, type UpgradeListener } from '../server';

/** What the test server serves: an app's request and upgrade listeners (`BaseRouter.handler` and `.upgrade`). */
export interface ServedApp {
  readonly handler: RequestListener;
  readonly upgrade: UpgradeListener | undefined;
}

/** Options of `TestClient.websocket`. */
export interface WebSocketTestOptions {
  /** Headers of the upgrade request (`authorization`, `origin`). */
  headers?: Record<string, string>;
}

/** What `TestClient.websocket` rejects with when the app refuses the upgrade: the status and body it answered. */
export class WebSocketRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`The WebSocket upgrade was refused with ${status}: ${body}`);
    this.name = 'WebSocketRefused';
  }
}

/**
 * The app's server on 127.0.0.1 and a free port, started on first use, for `TestClient.websocket`: upgrades need
 * a real socket. `close()` terminates the clients it opened and stops the server.
 */
export class WebSocketTestServer {
  readonly #app: ServedApp;
  #server: Promise<Server> | undefined;
  readonly #sockets = new Set<WebSocket>();

  constructor(app: ServedApp) {
    this.#app = app;
  }

  async open(path: string, options: WebSocketTestOptions = {}): Promise<WebSocket> {
    const server = await (this.#server ??= this.#listen());
    const { port } = server.address() as AddressInfo;
    const { WebSocket: Client } = require('ws') as typeof import('ws');
    const socket = new Client(`ws://127.0.0.1:${port}${path}`, { headers: options.headers });
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    return new Promise((resolve, reject) => {
      // The server's first frames may come in the same packet as its 101: they wait, unread, for the caller's
      // first 'message' (or 'close') listener.
      socket.once('open', () => {
        socket.pause();
        const resume = (event: string | symbol) => {
          if (event !== 'message' && event !== 'close') return;
          socket.off('newListener', resume);
          setImmediate(() => socket.resume());
        };
        socket.on('newListener', resume);
        resolve(socket);
      });
      socket.once('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          socket.terminate();
          reject(new WebSocketRefused(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        });
      });
      socket.once('error', reject);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    const server = await this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // The framework's own server (its timeouts and limits), as `app.listen()` makes it, on a free port.
  #listen(): Promise<Server> {
    return listen(this.#app.handler, { host: '127.0.0.1', port: 0 }, this.#app.upgrade);
  }
}
