import type { SchemaObject } from '../../openapi/types';

/** `{ $ref: '#/channels/TaskFeed' }`: a JSON pointer into the document. */
export interface Reference {
  $ref: string;
}

/** An AsyncAPI 3.0 Message Object: one JSON frame and its payload's schema. */
export interface MessageObject {
  name: string;
  title?: string;
  summary?: string;
  description?: string;
  contentType?: string;
  payload: SchemaObject;
}

/** An AsyncAPI 3.0 Channel Object: a gateway's path, its `{name}` parameters and every frame sent on it. */
export interface ChannelObject {
  address: string;
  title?: string;
  description?: string;
  parameters?: Record<string, { description?: string }>;
  messages: Record<string, MessageObject | Reference>;
  bindings?: { ws: { method: 'GET'; bindingVersion: '0.1.0' } };
}

/** An AsyncAPI 3.0 Security Scheme Object (`{ type: 'http', scheme: 'bearer' }`, `{ type: 'httpApiKey', in, name }`). */
export type AsyncSecurityScheme = { type: string; [field: string]: unknown };

/** An AsyncAPI 3.0 Operation Object: the app receives a client's message (with its replies) or sends one. */
export interface AsyncOperationObject {
  action: 'receive' | 'send';
  channel: Reference;
  title?: string;
  summary?: string;
  description?: string;
  messages: Reference[];
  reply?: { channel: Reference; messages: Reference[] };
  /** Schemes of which one must be satisfied: a `$ref` to `components.securitySchemes`, or a copy naming the scopes needed. */
  security?: Array<Reference | AsyncSecurityScheme>;
  /** The requirements as OpenAPI writes them, when AsyncAPI's list of alternatives cannot say them (two guards, both needed). */
  'x-security-requirements'?: Array<Record<string, string[]>>;
}

/**
 * The AsyncAPI 3.0 document of an app's WebSocket gateways, as `/docs/asyncapi.json` serves it: one channel per
 * gateway, a `receive` operation per `@OnMessage` event (with its replies), a `send` operation per `@Emits` event.
 *
 * @example
 * ```ts
 * const document: AsyncAPIDocument = buildAsyncAPI({ title: 'Tasks API', version: '1.0.0' }, [TaskFeed]);
 * console.log(document.channels.TaskFeed.address); // '/ws/tasks'
 * ```
 */
export interface AsyncAPIDocument {
  asyncapi: '3.0.0';
  info: { title: string; version: string; description?: string };
  defaultContentType: 'application/json';
  channels: Record<string, ChannelObject>;
  operations: Record<string, AsyncOperationObject>;
  components: {
    schemas?: Record<string, SchemaObject>;
    messages: Record<string, MessageObject>;
    securitySchemes?: Record<string, AsyncSecurityScheme>;
  };
}
