import type { Class } from '../../core/types';
import { scopesOf } from '../../decorators/scopes';
import { TrellisError } from '../../framework-error';
import { metadataChain } from '../../metadata';
import type { MiddlewareLike } from '../../middleware';
import { SchemaRegistry } from '../../openapi/schemas';
import { pathParams } from '../../routing/path';
import type { TypeTable } from '../../source/types/table';
import { gatewayPathOf } from '../gateway';
import { messageHandlersOf } from '../on-message';
import { emittedOf } from './emits';
import { emittedMessage, errorMessage, receivedMessage, replyMessage } from './messages';
import { AsyncSecurity } from './security';
import { gatewayTypes, handlerTypes, type GatewayTypes } from './source';
import type { AsyncAPIDocument, AsyncOperationObject, ChannelObject, MessageObject, Reference } from './types';

/** What the document says of the app. */
export interface AsyncAPIInfo {
  title: string;
  version: string;
  description?: string;
  /** The app-wide middleware that runs on upgrades: the security schemes they declare guard every operation. */
  middleware?: readonly MiddlewareLike[];
}

/** How {@link buildAsyncAPI} reads the handlers' return types. */
export interface AsyncAPIOptions {
  /** The handlers' source types (a build's table); read from the gateways' files when absent; `false`: none (every reply untyped). */
  sourceTypes?: TypeTable | false;
}

const ERROR = '#/components/messages/WebSocketError';
const CONNECT = 'Open a WebSocket to this path on the host that serves these docs (ws:// or wss://). Every message, both ways, is JSON text {"event": "<name>", "data": ...}.';

/**
 * The AsyncAPI 3.0.0 document of an app's WebSocket gateways. Each gateway is a channel whose address is its path
 * (its `{name}` parameters declared) and whose messages are every frame sent on it. Each `@OnMessage(event)` handler
 * is a `receive` operation: the message is the envelope `{"event": event, "data": ...}` with `data` the schema of the
 * handler's data class (class-validator's rules, as the OpenAPI document's bodies), and its `reply` is what the
 * handler returns (its return type read from the source; untyped when it cannot be read; none for `void`) or the
 * error frame. Each `@Emits(event, Data)` is a `send` operation (a broadcast, a greeting). The guards' security
 * (`@Use` on the gateway: the upgrade's; on a handler: that message's too) and their scopes (`@Scopes`) are read
 * as the OpenAPI document reads a route's. No `servers`: a document served by the app does not know its public host.
 *
 * @example
 * ```ts
 * const document = buildAsyncAPI({ title: 'Tasks API', version: '1.0.0' }, [TaskFeed]);
 * document.operations['TaskFeed.receive.subscribe'].reply?.messages; // the reply, then the error frame
 * ```
 */
export function buildAsyncAPI(info: AsyncAPIInfo, gateways: readonly Class[], options: AsyncAPIOptions = {}): AsyncAPIDocument {
  const types = gatewayTypes(gateways, options.sourceTypes);
  const context: Context = { registry: new SchemaRegistry(types.table?.schemas), security: new AsyncSecurity(), types, appWide: info.middleware ?? [] };
  const document: Pick<AsyncAPIDocument, 'channels' | 'operations'> = { channels: {}, operations: {} };
  const channelIds = new Set<string>();
  const operationIds = new Set<string>();
  for (const cls of gateways) {
    const id = unique(key(cls.name), channelIds);
    const { channel, operations } = gatewayChannel(cls, id, context);
    document.channels[id] = channel;
    for (const [name, operation] of operations) document.operations[unique(name, operationIds)] = operation;
  }
  // Built before the schemas are read: it adds HTTPError.
  const messages = { WebSocketError: errorMessage(context.registry) };
  const schemas = context.registry.schemas;
  const securitySchemes = context.security.components;
  return {
    asyncapi: '3.0.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    defaultContentType: 'application/json',
    ...document,
    components: { ...(schemas ? { schemas } : {}), messages, ...(securitySchemes ? { securitySchemes } : {}) },
  };
}

interface Context {
  registry: SchemaRegistry;
  security: AsyncSecurity;
  types: GatewayTypes;
  appWide: readonly MiddlewareLike[];
}

/** One gateway's channel (`#/channels/{id}`) and its operations, by their proposed ids. */
function gatewayChannel(cls: Class, id: string, { registry, security, types, appWide }: Context): { channel: ChannelObject; operations: Array<[string, AsyncOperationObject]> } {
  const path = gatewayPathOf(cls);
  if (path === undefined) throw new TrellisError('TRELLIS_ERR_GATEWAY', cls.name, "it does not extend gateway('/path')");
  const names = pathParams(path);
  const channel: ChannelObject = {
    address: path,
    title: cls.name,
    description: CONNECT,
    ...(names.length ? { parameters: Object.fromEntries(names.map((name) => [name, { description: `The {${name}} segment of the path (client.params.${name}).` }])) } : {}),
    messages: { error: { $ref: ERROR } },
    bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
  };
  const self = { $ref: `#/channels/${id}` };
  const keys = new Set(['error']);
  const ref = (name: string): Reference => ({ $ref: `#/channels/${id}/messages/${name}` });
  const add = (name: string, message: MessageObject): Reference => {
    const taken = unique(key(name), keys);
    channel.messages[taken] = message;
    return ref(taken);
  };
  const chain = metadataChain(cls);
  // The upgrade's guards and scopes: the app's, then the gateway classes' (a base class's first), as on a route.
  const guards = [...appWide, ...[...chain].reverse().flatMap((metadata) => metadata.middleware)];
  const scopes = [...new Set([...chain].reverse().flatMap((metadata) => metadata.scopes))];
  const operations: Array<[string, AsyncOperationObject]> = [];

  for (const [event, handler] of messageHandlersOf(cls)) {
    const own = chain.map((metadata) => metadata.routeMiddleware.get(handler.method)).find(Boolean) ?? [];
    const received = add(event, receivedMessage(handler, registry));
    const reply = replyMessage(event, handlerTypes(types, cls, handler.method), registry);
    const replies = [...(reply ? [add(`${event}.reply`, reply)] : []), ref('error')];
    const operation: AsyncOperationObject = {
      action: 'receive',
      channel: self,
      title: `${cls.name}: ${event}`,
      messages: [received],
      reply: { channel: self, messages: replies },
      ...security.of([...guards, ...own], scopesOf(chain, handler.method)),
    };
    operations.push([`${id}.receive.${key(event)}`, operation]);
  }
  for (const message of emittedOf(cls)) {
    const sent = add(message.event, emittedMessage(message, registry));
    const operation: AsyncOperationObject = { action: 'send', channel: self, title: `${cls.name}: ${message.event}`, messages: [sent], ...security.of(guards, scopes) };
    operations.push([`${id}.send.${key(message.event)}`, operation]);
  }
  return { channel, operations };
}

// A name a JSON pointer and a component key take as is (AsyncAPI's `^[\w\d.\-_]+$`): event names may hold anything.
function key(name: string): string {
  return name.replace(/[^\w.-]/g, '_') || '_';
}

function unique(name: string, taken: Set<string>): string {
  let found = name;
  for (let n = 2; taken.has(found); n++) found = `${name}_${n}`;
  taken.add(found);
  return found;
}
