import type { OutgoingHttpHeaders } from 'node:http';

/** One request as a `TestClient` sends it in-process, answered with the status, headers and body bytes. */
export type SendInProcess = (
  method: string,
  path: string,
  options: { headers: Record<string, string>; body?: Buffer },
) => Promise<{ status: number; headers: OutgoingHttpHeaders; body: Buffer }>;

// Where a bare path (`fetch('/tasks')`) points: only its path and query reach the app.
const BASE = 'http://localhost';
// Statuses whose response has no body (the Fetch standard's null body statuses).
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A WHATWG `fetch(input, init)` that answers through the app in-process (`send`: the `TestClient`'s request, with
 * light-my-request: no port). Any origin is accepted and only the path and query reach the app, with a `host`
 * header from the URL; a bare path works too. The answer is a real `Response` (`status`, `headers` with every
 * `set-cookie`, `json()`, `text()`), without a body for HEAD, 204, 205 and 304.
 *
 * @example
 * ```ts
 * const fetch = inProcessFetch((method, path, options) => client.request(method, path, options));
 * const response = await fetch('http://test/tasks/1');
 * ```
 */
export function inProcessFetch(send: SendInProcess): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(typeof input === 'string' && input.startsWith('/') ? new URL(input, BASE) : input, init);
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => (headers[name] = value));
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const answer = await send(request.method, url.pathname + url.search, { headers, body });
    request.signal.throwIfAborted();
    return new Response(request.method === 'HEAD' || NO_BODY.has(answer.status) ? null : answer.body, {
      status: answer.status,
      headers: responseHeaders(answer.headers),
    });
  };
}

function responseHeaders(raw: OutgoingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return headers;
}
