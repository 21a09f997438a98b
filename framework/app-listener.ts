import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import type { RequestListener } from './core/listener';
import type { Dispatcher } from './dispatch';
import type { Logger } from './core/logger';
import { DEFAULT_JSON_LIMITS } from './pipeline/body';
import { bodyReader } from './pipeline/body-reader';
import { protocolRefusal } from './protocol';
import { Request, type RequestContext } from './request';
import { RESPONSE, UPGRADE } from './symbols';
import type { PendingUpgrade } from './core/upgrade';
import { errorResponse } from './error-envelope';
import { Response } from './response';
import { canonicalPath, upgradeTarget } from './routing/canonical-path';
import { escapesPlainCharacter } from './routing/plain-escape';
import { DEFAULT_UPLOAD_LIMITS } from './uploads/limits';
import { report } from './report';
import { writeFailure, writeResponse, writeSocketError } from './write';
import { requestId } from './request-id';

/** What the app gives every request: the request context but the body reader, which the listener adds. */
export type AppRequestContext = Omit<RequestContext, 'reader'>;

// Until the app freezes (a request that starts it).
const DEFAULT_CONTEXT: RequestContext = {
  reader: bodyReader,
  bodyLimit: 1024 * 1024,
  uploadLimits: DEFAULT_UPLOAD_LIMITS,
  jsonLimits: DEFAULT_JSON_LIMITS,
  templates: undefined,
};

/**
 * How an app serves a request (internal; `BaseRouter.handler` is its `listener`): the Node request becomes a
 * `Request` with its id, a path Node lets through but HTTP forbids is refused, and the app's pipeline answers,
 * or, before the app has started, the start is awaited first. The app sets `context` and `observe` when it freezes,
 * `probe` when a plug-in has routes answering before the start, and `dispatcher` once its startup hooks ran.
 *
 * Mounted in Express (called with a `next`), a request no route of the app answers goes on to the next
 * Express handler untouched, as from an Express router, and so does a path that spells a plain character
 * with an escape (`/%61dmin`): Express matched its guards against the path as received, so the app does not
 * serve that path's decoded form behind them.
 */
export class AppListener {
  #context: RequestContext = DEFAULT_CONTEXT;
  dispatcher: Dispatcher | undefined;
  /** A health probe's answer to `request`, given before the app has started; undefined for other requests. */
  probe: ((request: Request) => Promise<Response> | undefined) | undefined;
  /** Sees every request as it arrives (the plug-ins' `host.observe`: the metrics), set by the app. */
  observe: ((request: Request, res: ServerResponse) => void) | undefined;
  /** Changes every response before it is written (the plug-ins' `host.onResponse` hooks), set by the app. */
  finish: ((request: Request, response: Response) => void) | undefined;
  /** The plug-ins' `host.upgrade` handlers, set by the app. */
  upgrades: ReadonlyArray<(req: IncomingMessage, socket: Duplex, head: Buffer) => boolean> = [];
  /** Whether a route of the app answers `method` at `path`; set by the app. */
  answers: (method: string, path: string) => boolean = () => true;
  /** Whether a route taking upgrades (a WebSocket gateway's) answers `path`; set by the app. */
  takesUpgrade: (path: string) => boolean = () => false;
  readonly #logger: Logger;
  readonly #start: () => Promise<void>;

  constructor(logger: Logger, start: () => Promise<void>) {
    this.#logger = logger;
    this.#start = start;
  }

  /** What every request shares, set by the app when it freezes; the listener adds the pipeline's body reader. */
  get context(): RequestContext {
    return this.#context;
  }

  set context(context: AppRequestContext) {
    this.#context = { ...context, reader: bodyReader };
  }

  readonly listener: RequestListener = (req, res, next) => {
    const dispatcher = this.dispatcher;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const target = q < 0 ? url : url.slice(0, q);
    const path = canonicalPath(target);
    if (next && path !== undefined && (escapesPlainCharacter(target) || !this.answers(req.method ?? 'GET', path))) return next();
    const request = new Request(req, res, path ?? target, q < 0 ? '' : url.slice(q + 1), this.#context);
    // Like Fastify and pino-http: loggers wrapping the listener read the id from the Node request.
    (req as IncomingMessage & { id?: string }).id = request.id;
    this.observe?.(request, res);
    const refused = path === undefined ? ([400, 'Malformed request path'] as const) : protocolRefusal(req);
    if (refused) return this.#write(request, errorResponse(refused[0], refused[1]));
    if (!dispatcher) return void this.#beforeStart(request);
    this.#serve(dispatcher, request);
  };

  /**
   * Takes an HTTP upgrade request once the app has started. One a route takes (a WebSocket gateway's) goes through
   * the pipeline as any request does: the plug-ins' and the app's middleware, the route's guards, scopes and rate
   * limit; the route accepts it (101) or the answer on the way (a 401, a 429) is written on the socket, which then
   * closes. Any other goes to the first `host.upgrade` handler that owns it; none (or an app that failed to start)
   * answers with the error envelope and closes the socket.
   */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => {}); // a client gone mid-handshake is no crash; the owner adds its own handling
    const take = () => {
      const target = upgradeTarget(req);
      if (target && this.takesUpgrade(target.path)) return this.#serveUpgrade(req, socket, head, target);
      for (const handler of this.upgrades) if (handler(req, socket, head)) return;
      writeSocketError(socket, 404, requestId(undefined));
      socket.destroy();
    };
    if (this.dispatcher) return take();
    this.#start().then(take, (error: unknown) => {
      this.#logger.error({ err: error }, 'the app failed to start');
      writeSocketError(socket, 503, requestId(undefined));
      socket.destroy();
    });
  };

  // The upgrade's own response object owns the socket while the pipeline runs (a refusal is written through it by
  // the one writer); an accepted upgrade detaches it and hands the socket over.
  #serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: { path: string; search: string }): void {
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    const request = new Request(req, res, target.path, target.search, this.#context);
    const upgrade: PendingUpgrade = { socket, head };
    request[UPGRADE] = upgrade;
    const settled = (response: Response) => {
      if (response.status === 101 && upgrade.accept && !socket.destroyed) {
        res.detachSocket(socket as Socket);
        return upgrade.accept();
      }
      if (response.status === 101) response = errorResponse(500, 'Internal Server Error');
      response.headers.set('connection', 'close');
      // No parser reads this socket any more: once the answer is out, it closes (an Express middleware may have
      // written its own answer already).
      const close = () => (socket as Socket).destroySoon();
      if (res.writableEnded) close();
      else res.on('finish', close);
      this.#write(request, response);
    };
    const response = this.dispatcher!(request);
    if (response instanceof Response) return settled(response);
    response.then(settled, (error) => {
      report(this.#logger, request, 'the upgrade failed', error);
      socket.destroy();
    });
  }

  // A response ready at once (a GET whose handler returned a value) is written in the same turn of the loop.
  #serve(dispatcher: Dispatcher, request: Request): void {
    const response = dispatcher(request);
    if (response instanceof Response) return this.#write(request, response);
    response.then(
      (ready) => this.#write(request, ready),
      (error) => this.#crash(request, error),
    );
  }

  // The plug-ins' response hooks, then the writer; a hook that throws turns the response into a 500.
  #write(request: Request, response: Response): void {
    const finish = this.finish;
    if (finish !== undefined) {
      try {
        finish(request, response);
      } catch (error) {
        if (response.body instanceof Readable) response.body.destroy();
        report(this.#logger, request, 'a response hook failed', error);
        return writeResponse(request, errorResponse(500, 'Internal Server Error'), this.#logger);
      }
    }
    writeResponse(request, response, this.#logger);
  }

  // A request before the app has started starts it: the health probes answer at once (503 for readiness),
  // anything else waits for the start.
  async #beforeStart(request: Request): Promise<void> {
    const starting = this.#start();
    const probe = this.probe?.(request);
    if (probe) {
      starting.catch(() => {}); // reported to the requests that wait for it, and by /readyz staying 503
      return this.#write(request, await probe);
    }
    try {
      await starting;
    } catch (error) {
      report(this.#logger, request, 'the app failed to start', error);
      return this.#write(request, errorResponse(503, 'Service Unavailable'));
    }
    this.#serve(this.dispatcher!, request);
  }

  // Unreachable by design (every step turns errors into responses); kept so a bug cannot hang a socket.
  #crash(request: Request, error: unknown): void {
    writeFailure(request[RESPONSE], request.id, request.raw.complete === false);
    report(this.#logger, request, 'the request failed', error);
  }
}
