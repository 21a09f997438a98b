import type { Class } from '../core/types';
import type { Logger } from '../core/logger';
import { scopesOf } from '../decorators/scopes';
import { TrellisError } from '../framework-error';
import { HTTPException, RequestValidationError, type ValidationDetail } from '../http-exception';
import { metadataChain } from '../metadata';
import type { Middleware, MiddlewareLike } from '../middleware';
import { compileValidator, hasValidationRules, type InstanceValidator } from '../pipeline/validate';
import type { Request } from '../request';
import { checksScopes } from '../routing/guarded-scopes';
import { MESSAGE_REQUEST } from '../symbols';
import type { WebSocketClient } from './client';
import { errorFrame, readFrame, refusalFrame } from './frames';
import type { Gateway } from './gateway';
import { guardChain, type GuardChain } from './guards';
import { messageHandlersOf } from './on-message';

// Data of these types is passed as sent: no class to validate it by.
const UNCHECKED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

/** What the app builds of a guard (a class, with injection) or gives as it is (an instance). */
export type GuardSource = (like: MiddlewareLike, where: string) => () => Middleware;

interface CompiledHandler {
  event: string;
  method: string | symbol;
  validate: InstanceValidator | undefined;
  /** The class's and the handler's guards, run on each message: only when the handler has `@Use` or `@Scopes` of its own. */
  guards?: Array<() => Middleware>;
  /** The scopes its guards check: the class's and the handler's. */
  scopes?: readonly string[];
  chain?: GuardChain;
}

/**
 * Turns the incoming messages of one gateway's clients into handler calls, compiled once per gateway class:
 * each `@OnMessage` data class gets the validator a `@Body()` DTO gets, and a handler with `@Use` or `@Scopes` of
 * its own gets the class's guards and its own, run on each of its messages with its scopes (as a router's `@Use`
 * and a handler's run around an HTTP route). Every failure is an error frame to that client (logged when it is not
 * an `HTTPException`); nothing here rejects or throws, whatever a handler returns or throws.
 */
export class MessageDispatcher {
  readonly #handlers = new Map<string, CompiledHandler>();
  readonly #name: string;
  readonly #logger: Logger;

  constructor(cls: Class<Gateway>, logger: Logger, guardOf: GuardSource) {
    this.#name = cls.name;
    this.#logger = logger;
    const chain = metadataChain(cls);
    const classGuards = [...chain].reverse().flatMap((metadata) => metadata.middleware);
    for (const [event, handler] of messageHandlersOf(cls)) {
      const where = `@OnMessage('${event}') ${String(handler.method)}`;
      const own = chain.map((metadata) => metadata.routeMiddleware.get(handler.method)).find(Boolean) ?? [];
      const ownScopes = chain.some((metadata) => metadata.routeScopes.has(handler.method));
      const compiled: CompiledHandler = { event, method: handler.method, validate: validatorOf(cls, event, handler.dataType) };
      if (own.length || ownScopes) {
        const guards = [...classGuards, ...own];
        compiled.scopes = scopesOf(chain, handler.method);
        if (compiled.scopes && !guards.some(checksScopes)) {
          throw new TrellisError('TRELLIS_ERR_SCOPES_UNGUARDED', `${cls.name} ${where}`, `${cls.name}.${String(handler.method)}`, compiled.scopes.join(' '));
        }
        compiled.guards = guards.map((like) => guardOf(like, `${cls.name} ${where}`));
      }
      this.#handlers.set(event, compiled);
    }
  }

  /** The events this gateway answers. */
  get events(): string[] {
    return [...this.#handlers.keys()];
  }

  /** Once the app has started: the guard chains of the handlers that have guards. */
  start(): void {
    for (const handler of this.#handlers.values()) {
      if (handler.guards) handler.chain = guardChain(handler.guards.map((guard) => guard()), this.#logger);
    }
  }

  /** Handles one incoming frame of `client` on `instance`. */
  dispatch(instance: Gateway, client: WebSocketClient, data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    let event: string;
    let payload: unknown;
    try {
      ({ event, data: payload } = readFrame(data, isBinary));
    } catch (error) {
      return this.fail(client, error, undefined);
    }
    const handler = this.#handlers.get(event);
    if (!handler) return this.fail(client, new HTTPException(404, `Unknown event ${JSON.stringify(event)}`), event);
    if (!handler.chain) return this.#run(instance, client, handler, payload, client.request);
    const request = client.request[MESSAGE_REQUEST](handler.scopes);
    handler.chain(request).then(
      (refusal) => {
        if (refusal === undefined) this.#run(instance, client, handler, payload, request);
        else client.sendText(refusalFrame(refusal));
      },
      (error: unknown) => this.fail(client, error, event),
    );
  }

  /** Sends the error frame of `error` to `client`; anything but an `HTTPException` is logged with the connection's id. */
  fail(client: WebSocketClient, error: unknown, event: string | undefined): void {
    if (!(error instanceof HTTPException)) {
      try {
        this.#logger.error({ err: error, gateway: this.#name, event, client: client.id, reqId: client.request.id }, 'a WebSocket handler failed');
      } catch {
        // A logger that throws cannot end the connection either.
      }
    }
    client.sendText(errorFrame(error));
  }

  // Validates the data, calls the handler, sends what it returns; whatever throws or rejects is an error frame.
  #run(instance: Gateway, client: WebSocketClient, handler: CompiledHandler, payload: unknown, request: Request): void {
    const { event } = handler;
    const reply = (value: unknown) => {
      try {
        if (value !== undefined) client.send(value);
      } catch (error) {
        this.fail(client, error, event); // a value JSON cannot encode: circular, a BigInt, a throwing toJSON
      }
    };
    let outcome: unknown;
    let pending: boolean;
    try {
      outcome = this.#call(instance, client, handler, payload, request);
      pending = isThenable(outcome);
    } catch (error) {
      return this.fail(client, error, event);
    }
    if (pending) Promise.resolve(outcome).then(reply, (error: unknown) => this.fail(client, error, event));
    else reply(outcome);
  }

  #call(instance: Gateway, client: WebSocketClient, handler: CompiledHandler, payload: unknown, request: Request): unknown {
    const method = (instance as unknown as Record<string | symbol, (...args: unknown[]) => unknown>)[handler.method];
    if (!handler.validate) return method.call(instance, client, payload, request);
    const details: ValidationDetail[] = [];
    const checked = handler.validate(payload, '', details);
    if (checked instanceof Promise) {
      return checked.then((value) => {
        if (details.length) throw new RequestValidationError(details);
        return method.call(instance, client, value, request);
      });
    }
    if (details.length) throw new RequestValidationError(details);
    return method.call(instance, client, checked, request);
  }
}

function validatorOf(cls: Class, event: string, type: unknown): InstanceValidator | undefined {
  if (UNCHECKED.has(type) || typeof type !== 'function') return undefined;
  if (!hasValidationRules(type as Class)) {
    throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `@OnMessage('${event}') takes ${type.name}, which has no class-validator decorators: decorate its fields (@IsString(), ...)`);
  }
  return compileValidator(type as Class);
}

// What an async handler returns, or any thenable; a getter that throws on `then` is the handler's failure.
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}
