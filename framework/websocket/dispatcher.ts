import type { Class } from '../core/types';
import type { Logger } from '../core/logger';
import { TrellisError } from '../framework-error';
import { HTTPException, RequestValidationError, type ValidationDetail } from '../http-exception';
import { compileValidator, hasValidationRules, type InstanceValidator } from '../pipeline/validate';
import type { WebSocketClient } from './client';
import { errorFrame, readFrame } from './frames';
import type { Gateway } from './gateway';
import { messageHandlersOf } from './on-message';

// Data of these types is passed as sent: no class to validate it by.
const UNCHECKED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

interface CompiledHandler {
  method: string | symbol;
  validate: InstanceValidator | undefined;
}

/**
 * Turns the incoming messages of one gateway's clients into handler calls, compiled once per gateway class:
 * each `@OnMessage` data class gets the validator a `@Body()` DTO gets. Every failure is an error frame to
 * that client (logged when it is not an `HTTPException`); nothing here rejects or throws.
 */
export class MessageDispatcher {
  readonly #handlers = new Map<string, CompiledHandler>();
  readonly #name: string;
  readonly #logger: Logger;

  constructor(cls: Class<Gateway>, logger: Logger) {
    this.#name = cls.name;
    this.#logger = logger;
    for (const [event, handler] of messageHandlersOf(cls)) {
      const type = handler.dataType;
      let validate: InstanceValidator | undefined;
      if (!UNCHECKED.has(type) && typeof type === 'function') {
        if (!hasValidationRules(type as Class)) {
          throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, `@OnMessage('${event}') takes ${type.name}, which has no class-validator decorators: decorate its fields (@IsString(), ...)`);
        }
        validate = compileValidator(type as Class);
      }
      this.#handlers.set(event, { method: handler.method, validate });
    }
  }

  /** The events this gateway answers. */
  get events(): string[] {
    return [...this.#handlers.keys()];
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
    let outcome: unknown;
    try {
      outcome = this.#call(instance, client, handler, payload);
    } catch (error) {
      return this.fail(client, error, event);
    }
    if (outcome instanceof Promise) outcome.then((value) => reply(client, value), (error: unknown) => this.fail(client, error, event));
    else reply(client, outcome);
  }

  /** Sends the error frame of `error` to `client`; anything but an `HTTPException` is logged. */
  fail(client: WebSocketClient, error: unknown, event: string | undefined): void {
    if (!(error instanceof HTTPException)) {
      this.#logger.error({ err: error, gateway: this.#name, event, client: client.id, reqId: client.request.id }, 'a WebSocket handler failed');
    }
    client.sendText(errorFrame(error));
  }

  #call(instance: Gateway, client: WebSocketClient, handler: CompiledHandler, payload: unknown): unknown {
    const method = (instance as unknown as Record<string | symbol, (...args: unknown[]) => unknown>)[handler.method];
    if (!handler.validate) return method.call(instance, client, payload);
    const details: ValidationDetail[] = [];
    const checked = handler.validate(payload, '', details);
    if (checked instanceof Promise) {
      return checked.then((value) => {
        if (details.length) throw new RequestValidationError(details);
        return method.call(instance, client, value);
      });
    }
    if (details.length) throw new RequestValidationError(details);
    return method.call(instance, client, checked);
  }
}

function reply(client: WebSocketClient, value: unknown): void {
  if (value !== undefined) client.send(value);
}
