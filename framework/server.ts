import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { MAX_HEADER_LINES } from './protocol';
import { requestId } from './request-id';
import type { RequestListener } from './core/listener';
import { withStallTimeouts } from './server-timeouts';
import { ANSWERED, HTTP_SLOT } from './symbols';
import { writeSocketError } from './write';

export type { Server };

/** What a Node server's `upgrade` event calls: `app.upgrade` (see `BaseRouter.upgrade`). */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Options of `app.listen()`: address, timeouts and the connection cap (config.yaml's `server` section under `trellis run`).
 *
 * @example
 * ```ts
 * const server = await app.listen({ port: 8000, sendTimeout: 30_000, maxConnections: 5_000 });
 * ```
 */
export interface ListenOptions {
  /** `localhost` by default. */
  host?: string;
  /** 8000 by default; 0 picks a free port (read it from `server.address()` or `serverUrl`). */
  port?: number;
  /** Time allowed to receive a request's headers; slower sockets (slowloris) are closed. 30 s by default. */
  headersTimeout?: number;
  /** Time allowed to receive a whole request; a slower body gets 408. 120 s by default. */
  requestTimeout?: number;
  /** Idle time before a keep-alive socket is closed. 5 s by default. */
  keepAliveTimeout?: number;
  /**
   * Time a request body may send nothing (not the whole upload: any byte restarts it) before the request is
   * answered 408 and the socket closed, as nginx's `client_body_timeout`. 30 s by default, so a stalled upload
   * releases its buffers long before `requestTimeout`; 0 turns it off.
   */
  bodyTimeout?: number;
  /**
   * Time a started response may move no byte to the client (a client that stopped reading) before the socket is
   * destroyed, as nginx's `send_timeout`. A slow download that keeps reading is never cut, and neither is a
   * handler that takes long to answer (the timer covers the sending only). 30 s by default; 0 turns it off.
   * Node's idle timer sees the first stall of a write that had moved at all one period late: a stalled client
   * is cut between one and two periods after its last byte (30-60 s by default).
   */
  sendTimeout?: number;
  /**
   * Most open HTTP connections; further ones are closed as they arrive (as Node's `server.maxConnections`) while
   * the server serves those it has. 1,000 by default (per process: each `--workers` process has its own): what a
   * process serves well, and what bounds the memory of clients that hold their connections (each stalled reader
   * holds its response until `sendTimeout`). A connection upgraded to a WebSocket leaves this count for the
   * gateways' own caps (`websockets.max_connections`), so WebSockets never take the slots HTTP needs.
   */
  maxConnections?: number;
}

/** The defaults of the {@link ListenOptions} timeouts and connection cap, in milliseconds and connections. */
export const LISTEN_DEFAULTS = Object.freeze({ bodyTimeout: 30_000, sendTimeout: 30_000, maxConnections: 1_000 });

/**
 * Starts a Node HTTP server on `listener` (and `upgrade` on its upgrade requests: `app.upgrade`, for WebSockets);
 * resolves once it accepts connections.
 *
 * @example
 * ```ts
 * const server = await listen(app.handler, { host: 'localhost', port: 0, bodyTimeout: 10_000 });
 * ```
 */
export function listen(listener: RequestListener, options: ListenOptions, upgrade?: UpgradeListener): Promise<Server> {
  const headersTimeout = options.headersTimeout ?? 30_000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: options.requestTimeout ?? 120_000,
      keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
      // How often Node checks the two timeouts above (its default, 30 s, would double them).
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, headersTimeout / 4)),
      maxHeaderSize: 16 * 1024,
      // The listener answers a missing Host with the JSON 400 and request id every response has (Node's own has neither).
      requireHostHeader: false,
    },
  );
  server.on(
    'request',
    withStallTimeouts(server, listener, {
      bodyTimeout: options.bodyTimeout ?? LISTEN_DEFAULTS.bodyTimeout,
      sendTimeout: options.sendTimeout ?? LISTEN_DEFAULTS.sendTimeout,
    }),
  );
  // Node drops header lines past its cap without a word; keeping one more lets the listener answer 431.
  server.maxHeadersCount = MAX_HEADER_LINES + 1;
  capConnections(server, options.maxConnections ?? LISTEN_DEFAULTS.maxConnections);
  server.on('clientError', answerClientError);
  if (upgrade) server.on('upgrade', upgrade);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, options.host ?? 'localhost', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * Holds the server to `max` open HTTP connections: one more is destroyed as it arrives. Each counted socket can
 * leave the count by itself (`socket[HTTP_SLOT]()`, called once its upgrade to a WebSocket is done): Node's own
 * `maxConnections` would count it until it closes, letting long-lived WebSockets lock HTTP out.
 */
function capConnections(server: Server, max: number): void {
  let open = 0;
  server.on('connection', (socket: Socket & { [HTTP_SLOT]?: () => void }) => {
    if (open >= max) {
      server.emit('drop', { localAddress: socket.localAddress, remoteAddress: socket.remoteAddress });
      socket.destroy();
      return;
    }
    open++;
    let counted = true;
    const leave = () => {
      if (!counted) return;
      counted = false;
      open--;
    };
    socket[HTTP_SLOT] = leave;
    socket.once('close', leave);
  });
}

/** What `closeGracefully` stops after the server drained: an app (`BaseRouter`). */
export interface Stoppable {
  /** From now on the app reports itself not ready (`/readyz` 503). */
  drain(): void;
  /** Runs the shutdown hooks within `timeoutMs`; `true` when every one finished. */
  stop(options: { timeoutMs: number }): Promise<boolean>;
}

const apps = new WeakMap<Server, Stoppable>();

/** Records the app a server serves (`app.listen()` does), so that `closeGracefully(server)` stops it. */
export function attachApp(server: Server, app: Stoppable): void {
  apps.set(server, app);
}

/**
 * Stops accepting connections, lets in-flight requests finish, closes keep-alive sockets as soon as they are
 * idle (requests still arriving on them are answered with `Connection: close`), then stops the app (its
 * shutdown hooks, in the time left), and resolves `true` once all is done in time. After `graceMs` it
 * force-closes the remaining sockets and resolves `false`. The app is the one `app.listen()` started the
 * server for, or `app` when you created the server yourself; `/readyz` answers 503 from the start.
 *
 * @example
 * ```ts
 * process.once('SIGTERM', async () => process.exit((await closeGracefully(server)) ? 0 : 1));
 * ```
 */
export async function closeGracefully(server: Server, graceMs = 10_000, app: Stoppable | undefined = apps.get(server)): Promise<boolean> {
  const deadline = performance.now() + graceMs;
  app?.drain();
  const drained = await drain(server, graceMs);
  if (!app) return drained;
  const stopped = await app.stop({ timeoutMs: Math.max(0, deadline - performance.now()) });
  return drained && stopped;
}

function drain(server: Server, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const markClosing = (_req: unknown, res: { setHeader(name: string, value: string): void }) => res.setHeader('connection', 'close');
    server.prependListener('request', markClosing);
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => {
      clearInterval(sweep);
      server.closeAllConnections();
      resolve(false);
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(true);
    });
    server.closeIdleConnections();
  });
}

const CLIENT_ERRORS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * What Node's parser refuses before any listener runs (garbage request lines, oversized headers, bad
 * framing, unknown methods) gets the same JSON error envelope as everything else (the writer's raw bytes), then the
 * socket closes.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex & { _httpMessage?: { headersSent: boolean }; [ANSWERED]?: boolean },
): void {
  // As Node's own handler does: answer unless a response on this socket has started (`_httpMessage` is
  // the in-flight one) or was sent already while the body was still arriving, then destroy the socket: a
  // half-closed one stays open while a slowloris trickles.
  if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent && !socket[ANSWERED]) {
    writeSocketError(socket, CLIENT_ERRORS[error.code ?? ''] ?? 400, requestId(undefined));
  }
  socket.destroy();
}

/**
 * `http://host:port` of a listening server (`[::1]` for IPv6): the address to print or call when it listens on port 0.
 *
 * @example
 * ```ts
 * const server = await app.listen({ host: '127.0.0.1', port: 0 });
 * console.log(`listening on ${serverUrl(server)}`); // listening on http://127.0.0.1:40123
 * ```
 */
export function serverUrl(server: Server): string {
  const { address, port, family } = server.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}
