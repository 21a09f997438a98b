import { HTTP_ERROR } from '../../openapi/responses';
import type { SchemaRegistry } from '../../openapi/schemas';
import type { SchemaObject } from '../../openapi/types';
import type { MethodTypes } from '../../source/types/table';
import type { MessageHandler } from '../on-message';
import type { EmittedMessage } from './emits';
import type { MessageObject } from './types';

// Data of these types is passed to the handler as sent, unchecked (as the dispatcher does): documented, never required.
const UNCHECKED = new Set<unknown>([undefined, Object, String, Number, Boolean, Array]);

/** The frame every message is: `{"event": event, "data": data}`, `data` required when the server checks it. */
export function envelope(event: string, data: SchemaObject, dataRequired: boolean): SchemaObject {
  return {
    type: 'object',
    properties: { event: { type: 'string', const: event }, data },
    required: dataRequired ? ['event', 'data'] : ['event'],
  };
}

/** A message a client sends to an `@OnMessage(event)` handler: its data as the handler's data class describes it (validated as a `@Body()` DTO is). */
export function receivedMessage(handler: MessageHandler, registry: SchemaRegistry): MessageObject {
  const type = typeof handler.dataType === 'function' ? handler.dataType : undefined;
  const checked = type !== undefined && !UNCHECKED.has(type);
  const data = type ? registry.schemaOf(type) : {};
  const method = `Handled by ${String(handler.method)}()`;
  const summary = checked
    ? `${method}; data that breaks the rules of ${type.name} is answered with an error frame (the body of the HTTP 422), and the handler does not run.`
    : type ? `${method}; its data is passed as sent.` : `${method}, which takes no data.`;
  return { name: handler.event, title: handler.event, summary, payload: envelope(handler.event, data, checked) };
}

/**
 * What the handler of `event` sends back, from its return type read from the source (`types`): undefined when it
 * returns nothing (`void`), a message of that type's schema for a value, and a message of any JSON value when the
 * source could not say (no TypeScript source, or no compiler installed).
 */
export function replyMessage(event: string, types: MethodTypes | undefined, registry: SchemaRegistry): MessageObject | undefined {
  const returns = types?.returns;
  if (returns?.kind === 'empty') return undefined;
  const name = `${event}.reply`;
  const title = `Reply to ${event}`;
  if (returns?.kind === 'json') {
    return { name, title, summary: 'What the handler returns, sent as JSON to the client whose message it handled.', payload: registry.fromSource(returns.schema) };
  }
  const summary = 'What the handler returns, sent as JSON to the client whose message it handled (its type could not be read from the source: any JSON value).';
  return { name, title, summary, payload: {} };
}

/** A message the gateway sends on its own (a broadcast, a greeting), as `@Emits` declares it. */
export function emittedMessage(message: EmittedMessage, registry: SchemaRegistry): MessageObject {
  const data = message.data === undefined ? {} : registry.schemaOf(message.data as never);
  return {
    name: message.event,
    title: message.event,
    ...(message.description ? { description: message.description } : {}),
    payload: envelope(message.event, data, message.data !== undefined),
  };
}

/** The error frame, a possible reply to every message: the body an HTTP request would get, `{"error": ...}` and its extra fields. */
export function errorMessage(registry: SchemaRegistry): MessageObject {
  return {
    name: 'error',
    title: 'Error',
    summary:
      'Answers a message the server refused: text that is not JSON, a binary frame, an unknown event, data that breaks its rules ' +
      '(`details` as in the HTTP 422), a guard or scope that refuses it (the 401/403 body), an HTTPException the handler throws ' +
      '(its message), or any other failure (`Internal Server Error`). The connection stays open.',
    payload: envelope('error', registry.define('HTTPError', HTTP_ERROR), true),
  };
}
