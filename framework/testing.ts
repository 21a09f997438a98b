import { inject } from 'light-my-request';
import type { OutgoingHttpHeaders } from 'node:http';
import type { BaseRouter, RequestListener } from './app';

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
 * Sends requests to an app in-process (no port, no network), through the same listener a server uses.
 *
 * @example
 * ```ts
 * const client = new TestClient(app);
 * const res = await client.post('/tasks', { json: { title: 'Write docs' } });
 * assert.equal(res.status, 201);
 * assert.equal(res.json().title, 'Write docs');
 * ```
 */
export class TestClient {
  readonly #listener: RequestListener;

  constructor(app: BaseRouter | RequestListener) {
    this.#listener = typeof app === 'function' ? app : app.handler;
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
