import { inject } from 'light-my-request';
import type { OutgoingHttpHeaders } from 'node:http';
import type { BaseRouter } from './app';
import type { RequestListener } from './core/listener';
import { TrellisError } from './framework-error';
import type { Token } from './injection/token';
import { inProcessFetch } from './testing/fetch';
import { WebSocketTestServer, type WebSocketTestOptions } from './testing/websocket';

/**
 * Options of a {@link TestClient}.
 *
 * @example
 * ```ts
 * const client = new TestClient(app, { overrides: [[Mailer, { send: async () => {} }]] });
 * ```
 */
export interface TestClientOptions {
  /**
   * `[token, replacement]` pairs given to `app.override` before the client reads the app's handler: fakes for
   * services, request-scoped providers and their dependencies (see `BaseRouter.override`).
   */
  overrides?: ReadonlyArray<readonly [Token, unknown]>;
}

export interface RequestOptions {
  /** Sent as a JSON body with `content-type: application/json`. */
  json?: unknown;
  /** A raw body (string or bytes), sent as is. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string | string[]>;
}

/** What a `TestClient` request resolves to. */
export class TestResponse {
  constructor(
    readonly status: number,
    /** Lower-case header names. */
    readonly headers: OutgoingHttpHeaders,
    readonly body: Buffer,
  ) {}

  get text(): string {
    return this.body.toString('utf8');
  }

  /** The body parsed as JSON. */
  json<T = any>(): T {
    return JSON.parse(this.text) as T;
  }
}

/**
 * Sends requests to an app in-process (no port, no network), through the same listener a server uses. The
 * first request starts the app (services built, `onStartup()` hooks run) unless `start()` did; `close()` runs
 * the `onShutdown()` hooks, as a server's graceful close would.
 *
 * @example
 * ```ts
 * const client = new TestClient(app);
 * await client.start();                      // optional: a failing startup hook rejects here
 * const res = await client.post('/tasks', { json: { title: 'Write docs' } });
 * assert.equal(res.status, 201);
 * assert.equal(res.json().title, 'Write docs');
 * await client.close();                      // shutdown hooks (after(() => client.close()) in node:test)
 *
 * const faked = new TestClient(app, { overrides: [[Mailer, fakeMailer], [UnitOfWork, fakeUow]] });
 * ```
 */
export class TestClient {
  readonly #listener: RequestListener;
  readonly #app: BaseRouter | undefined;
  #websockets: WebSocketTestServer | undefined;

  /**
   * A WHATWG `fetch` answered by the app in-process, as `request()` is: typed responses with openapi-fetch and the
   * `paths` of `trellis client`, no port. Any origin is accepted; only the path and query reach the app.
   *
   * @example
   * ```ts
   * const api = createClient<paths>({ baseUrl: 'http://test', fetch: client.fetch });
   * const { data } = await api.GET('/tasks/{task_id}', { params: { path: { task_id: 1 } } }); // data: Task | undefined
   * ```
   */
  readonly fetch: typeof globalThis.fetch = inProcessFetch((method, path, options) => this.request(method, path, options));

  constructor(app: BaseRouter | RequestListener, options: TestClientOptions = {}) {
    for (const [token, replacement] of options.overrides ?? []) {
      if (typeof app === 'function') throw new TrellisError('TRELLIS_ERR_OVERRIDE_INVALID', String((token as { name?: string })?.name ?? token), 'TestClient overrides need the app, not its request listener');
      app.override(token, replacement);
    }
    this.#listener = typeof app === 'function' ? app : app.handler;
    this.#app = typeof app === 'function' ? undefined : app;
  }

  /** Starts the app (`app.start()`): rejects with what stopped it. Requests do it themselves otherwise. */
  async start(): Promise<void> {
    await this.#app?.start();
  }

  /** Stops the app (`app.stop()`): its shutdown hooks run; resolves `true` when every one finished. */
  async close(): Promise<boolean> {
    await this.#websockets?.close();
    return (await this.#app?.stop()) ?? true;
  }

  /**
   * Opens a WebSocket to `path` of the app (a gateway's), resolving once it is open: a `ws` client, on a server
   * the test client starts on 127.0.0.1 and a free port at the first call and stops in `close()`, which also
   * terminates the sockets still open. A refused upgrade (a guard's 401, a 404) rejects with an error carrying its
   * `status` and `body`.
   *
   * @example
   * ```ts
   * const socket = await client.websocket('/ws/tasks', { headers: { authorization: `Bearer ${token}` } });
   * socket.send(JSON.stringify({ event: 'subscribe', data: { room: 'tasks' } }));
   * ```
   */
  websocket(path: string, options?: WebSocketTestOptions): Promise<import('ws').WebSocket> {
    if (!this.#app) throw new TypeError('TestClient.websocket needs the app, not its request listener');
    return (this.#websockets ??= new WebSocketTestServer(this.#app)).open(path, options);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const res = await inject(this.#listener, { method: method as 'GET', url: path, headers, payload, query: options.query });
    return new TestResponse(res.statusCode, res.headers, res.rawPayload);
  }

  get(path: string, options?: RequestOptions) { return this.request('GET', path, options); }
  post(path: string, options?: RequestOptions) { return this.request('POST', path, options); }
  put(path: string, options?: RequestOptions) { return this.request('PUT', path, options); }
  patch(path: string, options?: RequestOptions) { return this.request('PATCH', path, options); }
  delete(path: string, options?: RequestOptions) { return this.request('DELETE', path, options); }
  head(path: string, options?: RequestOptions) { return this.request('HEAD', path, options); }
  options(path: string, options?: RequestOptions) { return this.request('OPTIONS', path, options); }
}
