import type { Readable } from 'node:stream';
import encodeUrl from 'encodeurl';
import { serializeCookie, type CookieOptions } from './cookies';
import { TrellisError } from './framework-error';
import type { Request } from './request';
import { ENCODED, PREPARED } from './symbols';

/**
 * Response headers with case-insensitive names, as middleware sees them after `callNext`: the methods of the
 * built-in `Headers` that middleware uses, on an ordinary object that `res.writeHead` takes as it is. From the
 * response to Node's header block, a JSON response's headers cost ~1.2 us this way, ~2.0 us on a
 * `Object.create(null)` object (a dictionary to V8, walked slower by `writeHead`) and ~2.5 us with the built-in
 * `Headers` (`node bench/micro/headers.js`). Names are read as own properties only: `constructor` is never
 * found on the prototype, and `__proto__` is defined as an own property instead of replacing the prototype.
 */
export class ResponseHeaders {
  #values: Record<string, string | string[]> = {};

  constructor(init?: Record<string, string | string[]>) {
    if (init) for (const name of Object.keys(init)) this.set(name, init[name]);
  }

  get(name: string): string | undefined {
    const value = this.#own(name.toLowerCase());
    return Array.isArray(value) ? value.join(', ') : value;
  }

  set(name: string, value: string | string[]): this {
    const key = name.toLowerCase();
    if (key === '__proto__') Object.defineProperty(this.#values, key, { value, enumerable: true, writable: true, configurable: true });
    else this.#values[key] = value;
    return this;
  }

  /** Adds a value without replacing earlier ones (e.g. several `set-cookie`). */
  append(name: string, value: string): this {
    const current = this.#own(name.toLowerCase());
    return this.set(name, current === undefined ? value : [...(Array.isArray(current) ? current : [current]), value]);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.#values, name.toLowerCase());
  }

  delete(name: string): boolean {
    const key = name.toLowerCase();
    return Object.hasOwn(this.#values, key) && delete this.#values[key];
  }

  /** A plain object with lower-case names, as `res.writeHead` takes it (it reads own properties only). */
  toObject(): Record<string, string | string[]> {
    return this.#values;
  }

  #own(key: string): string | string[] | undefined {
    return Object.hasOwn(this.#values, key) ? this.#values[key] : undefined;
  }

  /** The `set-cookie` values, one per cookie (as the built-in `Headers.getSetCookie()`). */
  getSetCookie(): string[] {
    const value = this.#own('set-cookie');
    return value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  }

  *[Symbol.iterator](): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#values)) yield [name, this.get(name)!];
  }
}

export interface ResponseInit {
  status?: number;
  headers?: Record<string, string | string[]>;
  /** @internal A `JSONResponse`'s body already encoded (by a route's declared shape). */
  [ENCODED]?: string;
}

/**
 * A response body: text or bytes (sent with their `Content-Length`), or a stream piped to the client with
 * backpressure (chunked unless a `content-length` header is set), destroyed if the client goes away.
 */
export type ResponseBody = string | Buffer | Readable | undefined;

/**
 * What a handler returns and what `callNext` resolves to in middleware: a status, headers and a body.
 * `body` is the encoded payload; `content` (on `JSONResponse`) is what the handler gave before encoding.
 *
 * @example
 * ```ts
 * return new Response('pong', { headers: { 'content-type': 'text/plain' } });
 * ```
 */
export class Response {
  status: number;
  readonly headers: ResponseHeaders;
  body: ResponseBody;
  /** @internal */
  [PREPARED]: boolean;

  constructor(body?: ResponseBody, init: ResponseInit = {}) {
    this.status = checkStatus(init.status ?? 200);
    this.headers = new ResponseHeaders(init.headers);
    this.body = body;
    this[PREPARED] = false;
  }

  /**
   * Settles what the response sends before middleware sees it: a subclass whose status or headers depend on
   * the request or on I/O (a file's existence, length and validators; conditional and range requests) fills
   * them here. The pipeline calls it once, right after the handler, a middleware or an exception handler
   * returned the response; an error it throws becomes a response like a handler's.
   */
  prepare(_request: Request): void | Promise<void> {}

  /**
   * Adds a `Set-Cookie` header (one per cookie; earlier ones are kept), serialized by the `cookie` package:
   * the value URL-encoded, `Path=/` unless `options.path` says otherwise, no other attribute unless given
   * (as Express's `res.cookie`). An invalid name, value or attribute throws `TRELLIS_ERR_COOKIE` here.
   *
   * @example
   * ```ts
   * const response = new JSONResponse({ ok: true });
   * response.setCookie('session', token, { httpOnly: true, secure: true, sameSite: 'lax', maxAge: 3600 });
   * return response;
   * ```
   */
  setCookie(name: string, value: string, options?: CookieOptions): this {
    this.headers.append('set-cookie', serializeCookie(name, value, options));
    return this;
  }

  /**
   * Tells the browser to drop a cookie: an empty value that expired at the epoch (`Max-Age=0`). Give the
   * `path` and `domain` it was set with (`/` unless given), or the browser keeps it.
   *
   * @example
   * ```ts
   * @Post('/logout') logout() { return new Response(undefined, { status: 204 }).deleteCookie('session'); }
   * ```
   */
  deleteCookie(name: string, options?: Omit<CookieOptions, 'maxAge' | 'expires'>): this {
    return this.setCookie(name, '', { ...options, maxAge: 0, expires: new Date(0) });
  }
}

/**
 * A JSON response with its own status and headers.
 *
 * @example
 * ```ts
 * return new JSONResponse({ id: 1 }, { status: 201, headers: { location: '/tasks/1' } });
 * ```
 */
export class JSONResponse extends Response {
  /** The value before encoding (and before a route's declared shape left properties out), for middleware that wants to read it. */
  readonly content: unknown;

  constructor(content: unknown, init: ResponseInit = {}) {
    super(init[ENCODED] ?? JSON.stringify(content) ?? 'null', init);
    this.content = content;
    if (!this.headers.has('content-type')) this.headers.set('content-type', 'application/json; charset=utf-8');
  }
}

/**
 * An HTML response (`text/html; charset=utf-8`).
 *
 * @example
 * ```ts
 * @Get('/hello') hello() { return new HTMLResponse('<h1>Hello</h1>'); }
 * ```
 */
export class HTMLResponse extends Response {
  constructor(html: string, init: ResponseInit = {}) {
    super(html, init);
    if (!this.headers.has('content-type')) this.headers.set('content-type', 'text/html; charset=utf-8');
  }
}

/**
 * A redirect: `Location: url` with status 307 unless another is given (301, 302, 303, 308). Characters not
 * allowed in a URL are percent-encoded (CR and LF included); escapes already there are kept (`a%26b` stays).
 *
 * @example
 * ```ts
 * @Get('/old') old() { return new RedirectResponse('/tasks', { status: 301 }); }
 * ```
 */
export class RedirectResponse extends Response {
  constructor(url: string, init: ResponseInit = {}) {
    super('', { status: 307, ...init });
    this.headers.set('location', encodeUrl(url));
  }
}

/** Throws for anything but an integer status from 100 to 599. */
export function checkStatus(status: number): number {
  if (!isStatus(status)) throw new TrellisError('TRELLIS_ERR_INVALID_STATUS', status);
  return status;
}

export function isStatus(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;
}
