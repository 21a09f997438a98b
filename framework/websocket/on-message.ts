import 'reflect-metadata';
import type { Class } from '../core/types';

/** One `@OnMessage` handler of a gateway class: the method and the class its data parameter declares. */
export interface MessageHandler {
  event: string;
  method: string | symbol;
  /** `design:paramtypes[1]`: the class the data is validated by; undefined (or `Object`) takes the data as sent. */
  dataType: unknown;
}

const HANDLERS = new WeakMap<Function, Map<string, MessageHandler>>();

/**
 * Marks a gateway method as the handler of incoming messages `{"event": event, "data": ...}`. It receives the
 * client and the data; a data parameter typed with a class of class-validator rules is validated as a `@Body()`
 * DTO is (an invalid one gets an error frame with the body of the HTTP 422, and the method is not called). A
 * value it returns (or resolves to) is sent to that client; what it throws is sent as an error frame
 * (`HTTPException`: its message; anything else: `Internal Server Error`, logged).
 *
 * @example
 * ```ts
 * class Subscribe { @IsString() @Length(1, 50) room!: string }
 *
 * class TaskFeed extends gateway('/ws/tasks') {
 *   @OnMessage('subscribe')
 *   subscribe(client: WebSocketClient, data: Subscribe) {
 *     client.join(data.room);
 *     return { event: 'subscribed', data: { room: data.room } };
 *   }
 * }
 * ```
 */
export function OnMessage(event: string): MethodDecorator {
  return (target, method) => {
    const cls = (target as { constructor: Function }).constructor;
    const own = HANDLERS.get(cls) ?? new Map<string, MessageHandler>();
    const types = Reflect.getMetadata('design:paramtypes', target, method) as unknown[] | undefined;
    own.set(event, { event, method, dataType: types?.[1] });
    HANDLERS.set(cls, own);
  };
}

/** The `@OnMessage` handlers of a gateway class, its base classes' included (the subclass's win), by event. */
export function messageHandlersOf(cls: Class): Map<string, MessageHandler> {
  const chain: Function[] = [];
  for (let current: unknown = cls; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    chain.unshift(current as Function);
  }
  const all = new Map<string, MessageHandler>();
  for (const link of chain) for (const [event, handler] of HANDLERS.get(link) ?? []) all.set(event, handler);
  return all;
}
