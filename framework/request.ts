import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'fast-querystring';
import { parseCookies } from './cookies';
import type { Logger } from './core/logger';
import { defaultLogger } from './logger';
import { requestId } from './request-id';
import type { PendingUpgrade } from './core/upgrade';
import { BODY, CONTEXT, FORM, MATCHED, MESSAGE_REQUEST, RESPONSE, SCOPES, UPGRADE } from './symbols';
import type { Form } from './uploads/form';
import type { UploadLimits } from './uploads/limits';
import type { TemplateRenderer } from './core/template-renderer';

/** What one JSON body may hold, checked before it is parsed (`AppOptions.maxObjectKeys`, `maxJsonContainers`). */
export interface JsonLimits {
  maxObjectKeys: number;
  maxJsonContainers: number;
}

/**
 * The pipeline's body reader (pipeline/body-reader.ts), which `body()`, `json()` and `form()` ask: the listener
 * gives it to every request in its `RequestContext`, so the request calls the reader forward and never the reverse.
 */
export interface BodyReader {
  bytes(request: Request): Promise<Buffer>;
  json(request: Request, maxItems: number | undefined): Promise<unknown>;
  form(request: Request): Promise<Form>;
}

/** What every request of one app shares, set up once by the app and the listener (internal). */
export interface RequestContext {
  /** The one reader of request bodies. */
  reader: BodyReader;
  bodyLimit: number;
  uploadLimits: Readonly<UploadLimits>;
  jsonLimits: Readonly<JsonLimits>;
  /** The engine of `app.templates(dir)`, which renders `render(...)` results. */
  templates: TemplateRenderer | undefined;
  /** The app's logger, parent of `request.log`; the default logger when absent. */
  logger?: Logger;
  /** The request header ids are taken from (`AppOptions.requestIdHeader`); none when absent. */
  requestIdHeader?: string;
}

export type QueryValues = Record<string, string | string[] | undefined>;

/**
 * What middleware puts in `request.state` for handlers and other middleware: empty until the project declares
 * its keys by declaration merging (as SvelteKit's `App.Locals`), so a key nobody declared, or a value of the
 * wrong type, is a type error where it is set and where it is read. Declare a key optional (`user?: User`)
 * unless every route's middleware sets it.
 *
 * @example
 * ```ts
 * declare module 'trellis' {
 *   interface RequestState {
 *     user: { id: number; name: string };
 *   }
 * }
 * request.state.user = { id: 1, name: 'ada' };   // in a middleware
 * request.state.user.name;                       // in a handler: string
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RequestState {}

/**
 * Who made the request, as a guard verified it: `jwtAuth` sets `request.user` to the token's claims, `apiKeyAuth`
 * to what its lookup returned. Augment it with the claims your tokens carry (declaration merging).
 *
 * @example
 * ```ts
 * declare module 'trellis' {
 *   interface User { sub: string; tenant: string }
 * }
 * @Get('/me') me(@Req() request: Request) { return { id: request.user?.sub }; }
 * ```
 */
export interface User {
  /** The subject: who the token is about (RFC 7519 `sub`). */
  sub?: string;
  /** The token's scopes, space-separated (RFC 8693 `scope`). */
  scope?: string;
  [claim: string]: unknown;
}

/**
 * The request as handlers (`@Req()`) and middleware see it: data the phases pass forward (method, path, headers,
 * query, params, cookies, state, and the body once read). The body is read once, on demand, by the pipeline's
 * body reader (pipeline/body-reader.ts); `body()`, `text()`, `json()` and `form()` ask it.
 *
 * @example
 * ```ts
 * class Auth extends Middleware {
 *   async dispatch(request: Request, callNext: CallNext) {
 *     if (!request.headers.authorization) return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
 *     return callNext(request);
 *   }
 * }
 * ```
 */
export class Request {
  readonly method: string;
  /**
   * The path the router matched: percent-escapes decoded (except those of reserved characters such as `%2F`),
   * no trailing slash, the absolute form (`GET http://host/a`) reduced to its path. `/users/%6de`, `/users/me/`
   * and `http://x/users/me` are all `/users/me`, so a guard comparing paths sees what the route sees.
   * The target as received is `url`.
   */
  readonly path: string;
  /** Path parameters of the matched route, decoded. */
  params: Record<string, string | undefined>;
  /**
   * The pattern of the matched route (`/users/{user_id}`), set before any middleware runs; `undefined` when no
   * route matched (404, 405, docs and static files).
   */
  route: string | undefined;
  /** @internal */
  [MATCHED]: unknown;
  /** @internal */
  [SCOPES]: readonly string[] | undefined;
  /** @internal The socket of an upgrade request (WebSockets); undefined on every other request. */
  [UPGRADE]: PendingUpgrade | undefined;
  /**
   * Who made the request, set by a guard (`jwtAuth`: the verified token's claims; `apiKeyAuth`: the key's
   * principal); `undefined` until one has run, and on routes no guard covers. Typed by {@link User}.
   */
  user: User | undefined;
  /**
   * A place for middleware to pass values to handlers and to each other, one object per request (made on first
   * use), typed by {@link RequestState}: declare its keys.
   */
  get state(): RequestState {
    return (this.#state ??= {} as RequestState);
  }
  #state: RequestState | undefined;
  /** The Node request, as received (headers, socket). Responses go through the pipeline, never to Node directly. */
  readonly raw: IncomingMessage;
  /** @internal */
  readonly [RESPONSE]: ServerResponse;
  /** @internal */
  readonly [CONTEXT]: RequestContext;
  /**
   * The request's id, sent back as `X-Request-Id` and written in its log lines: generated, unless the app
   * trusts a request header for it (`AppOptions.requestIdHeader`) and the request's value is short and plain.
   */
  readonly id: string;
  #search: string;
  #query: QueryValues | undefined;
  #cookies: Record<string, string | undefined> | undefined;
  /** @internal */
  [BODY]: unknown;
  /** @internal */
  [FORM]: Promise<Form> | undefined;
  readonly bodyLimit: number;
  /** Limits of a multipart body (`AppOptions.uploads`). */
  readonly uploadLimits: Readonly<UploadLimits>;
  /** What one JSON body may hold (`AppOptions.maxObjectKeys`, `maxJsonContainers`). */
  readonly jsonLimits: Readonly<JsonLimits>;
  #log: Logger | undefined;

  constructor(
    raw: IncomingMessage,
    res: ServerResponse,
    path: string,
    search: string,
    context: RequestContext,
    id?: string,
  ) {
    this.raw = raw;
    this[RESPONSE] = res;
    this.id = id ?? requestId(context.requestIdHeader === undefined ? undefined : raw.headers[context.requestIdHeader]);
    this.method = raw.method ?? 'GET';
    this.path = path;
    this.#search = search;
    this.params = {};
    this.route = undefined;
    this[MATCHED] = undefined;
    this[SCOPES] = undefined;
    this[UPGRADE] = undefined;
    this.user = undefined;
    this[CONTEXT] = context;
    this[BODY] = undefined;
    this[FORM] = undefined;
    this.bodyLimit = context.bodyLimit;
    this.uploadLimits = context.uploadLimits;
    this.jsonLimits = context.jsonLimits;
  }

  /**
   * @internal The request one WebSocket message of this upgrade request is checked as: the same headers, query,
   * path, parameters and id, the `user` the upgrade's guards left, `scopes` its handler needs; its own `state`.
   */
  [MESSAGE_REQUEST](scopes: readonly string[] | undefined): Request {
    const message = new Request(this.raw, this[RESPONSE], this.path, this.#search, this[CONTEXT], this.id);
    message.params = this.params;
    message.route = this.route;
    message.user = this.user;
    message[SCOPES] = scopes;
    return message;
  }

  /**
   * The app's logger (`AppOptions.logger`) for this request: every line carries `reqId`, the request id the
   * response sends back. Made on first use, so a request that logs nothing pays nothing.
   *
   * @example
   * ```ts
   * @Get('/{task_id}') one(@Path('task_id') id: number, @Req() request: Request) {
   *   request.log.info({ taskId: id }, 'task read'); // {"level":30,"time":…,"reqId":"…","taskId":1,"msg":"task read"}
   *   return this.tasks.get(id);
   * }
   * ```
   */
  get log(): Logger {
    return (this.#log ??= (this[CONTEXT].logger ?? defaultLogger()).child({ reqId: this.id }));
  }

  /** The request target as received: not decoded, query string included. */
  get url(): string {
    return this.raw.url ?? '/';
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  get query(): QueryValues {
    return (this.#query ??= this.#search ? (parseQuery(this.#search) as QueryValues) : {});
  }

  /**
   * The request's cookies by name, from its `Cookie` header (parsed once, on first use, by the `cookie`
   * package; values URL-decoded). A malformed header never throws: what cannot be read is left out or kept
   * as sent. Set and clear cookies with `response.setCookie` and `response.deleteCookie`.
   *
   * @example
   * ```ts
   * @Get('/me') me(@Req() request: Request) {
   *   const session = request.cookies.session;
   *   if (!session) throw new HTTPException(401);
   *   return this.sessions.userOf(session);
   * }
   * ```
   */
  get cookies(): Record<string, string | undefined> {
    return (this.#cookies ??= parseCookies(this.raw.headers.cookie));
  }

  /**
   * The raw body bytes, decoded from gzip, deflate or br: at most `bodyLimit` (else a 413), read once however many
   * readers ask (a middleware, `@Body()`, `text()`, `json()`), each getting the same bytes or the same refusal.
   *
   * @example
   * ```ts
   * @Post('/webhook') async hook(@Req() request: Request) {
   *   const signature = sign(await request.body()); // the exact bytes the sender signed
   *   if (signature !== request.headers['x-signature']) throw new HTTPException(401);
   *   return { received: true };
   * }
   * ```
   */
  body(): Promise<Buffer> {
    return this[CONTEXT].reader.bytes(this);
  }

  /** The body as UTF-8 text (see {@link body}). */
  async text(): Promise<string> {
    return (await this.body()).toString('utf8');
  }

  /**
   * The body parsed as JSON; `__proto__` and `constructor.prototype` keys are a 400, nesting deeper than 64
   * levels a 400, an object with more than `maxObjectKeys` keys a 413, so is a body with more than
   * `maxJsonContainers` objects and arrays, and an array of more than
   * `maxItems` items when given.
   */
  json(maxItems?: number): Promise<unknown> {
    return this[CONTEXT].reader.json(this, maxItems);
  }

  /**
   * The fields and files of a multipart or urlencoded body, parsed once (files over 1 MiB in temporary files). Over a limit
   * of `AppOptions.uploads` is a 413; a malformed body or another content type is a 400.
   *
   * @example
   * ```ts
   * @Post('/upload/many') async many(@Req() request: Request) {
   *   const form = await request.form();
   *   return { title: form.fields.title, files: form.filesOf('files').map((f) => f.filename) };
   * }
   * ```
   */
  form(): Promise<Form> {
    return this[CONTEXT].reader.form(this);
  }
}
