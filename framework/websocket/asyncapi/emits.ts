import type { Class } from '../../core/types';
import { TrellisError } from '../../framework-error';
import { Gateway } from '../gateway';

/** What an emitted message's `data` holds: a DTO class (its class-validator rules), a built-in (`String`, `Number`...), or `[Class]` for an array. */
export type EmittedData = Class | [Class];

/**
 * Options of {@link Emits}.
 *
 * @example
 * ```ts
 * @Emits('created', TaskOut, { description: 'A task was created; sent to the room `tasks`' })
 * ```
 */
export interface EmitsOptions {
  /** What the message means and when it is sent, shown in the AsyncAPI document (CommonMark). */
  description?: string;
}

/** One message a gateway sends on its own: what `@Emits` recorded. */
export interface EmittedMessage {
  event: string;
  /** Undefined: `data` is not described (any JSON, or none). */
  data: EmittedData | undefined;
  description?: string;
}

const EMITTED = new WeakMap<Function, EmittedMessage[]>();

/** The longest event name, as an incoming message may give it. */
const MAX_EVENT = 200;

/**
 * Declares a message `{"event": event, "data": ...}` that a gateway's clients receive without having asked: a
 * `Rooms.broadcast` to a room they joined, a greeting `client.send` in `onConnect`. trellis cannot read these from
 * the code that sends them, so the AsyncAPI document (`/docs/asyncapi.json`) lists the ones declared here, each a
 * `send` operation of the gateway's channel; `data` is documented with the schema of `data` (a DTO class's
 * class-validator rules, as for a `@Body()`). Documentation only: nothing is checked or shaped when it is sent.
 * On a class that does not extend `gateway(path)`, with an empty event name, or twice for one event, it throws
 * `TRELLIS_ERR_GATEWAY` where the class is defined.
 *
 * @example
 * ```ts
 * class TaskOut {
 *   @IsInt() id!: number;
 *   @IsString() title!: string;
 * }
 *
 * @Emits('created', TaskOut, { description: 'A task was created; sent to the room `tasks`' })
 * @Emits('deleted', TaskOut)
 * export class TaskFeed extends gateway('/ws/tasks') {
 *   onConnect(client: WebSocketClient) { client.join('tasks'); }
 * }
 * // elsewhere: rooms.broadcast('tasks', { event: 'created', data: task })
 * ```
 */
export function Emits(event: string, data?: EmittedData, options: EmitsOptions = {}): ClassDecorator {
  return (target) => {
    const cls = target as unknown as Function;
    if (!(cls.prototype instanceof Gateway)) fail(cls, "it is for WebSocket gateways: classes that extend gateway('/path')");
    if (typeof event !== 'string' || event === '' || event.length > MAX_EVENT) fail(cls, `its event name must be a string of 1 to ${MAX_EVENT} characters, not ${JSON.stringify(event)}`);
    if (!isData(data)) fail(cls, `${event}'s data must be a class or [Class], not ${String(data)}`);
    const own = EMITTED.get(cls) ?? [];
    if (own.some((message) => message.event === event)) fail(cls, `${JSON.stringify(event)} is declared twice`);
    // Decorators apply bottom-up: prepending keeps them in reading order.
    own.unshift({ event, data, ...(options.description ? { description: options.description } : {}) });
    EMITTED.set(cls, own);
  };
}

/** The messages `@Emits` declares on a gateway class and its base classes (a subclass's declaration of an event wins), base classes' first. */
export function emittedOf(cls: Class): EmittedMessage[] {
  const chain: Function[] = [];
  for (let current: unknown = cls; typeof current === 'function' && current !== Gateway; current = Object.getPrototypeOf(current)) chain.unshift(current as Function);
  const all = new Map<string, EmittedMessage>();
  for (const link of chain) for (const message of EMITTED.get(link) ?? []) all.set(message.event, message);
  return [...all.values()];
}

function isData(data: unknown): data is EmittedData | undefined {
  if (Array.isArray(data)) return data.length === 1 && typeof data[0] === 'function';
  return data === undefined || typeof data === 'function';
}

function fail(cls: Function, reason: string): never {
  throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name || 'anonymous class', `@Emits: ${reason}`);
}
