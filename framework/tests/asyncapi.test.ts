import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { IsInt, IsString, Length } from 'class-validator';
import { JwtAuth } from '../auth';
import { TrellisError } from '../framework-error';
import { BaseRouter, Middleware, Scopes, Use, type CallNext, type Request } from '../index';
import type { Plugin } from '../plugins';
import { apiKeyHeader, type SecurityScheme } from '../security';
import { TestClient } from '../testing';
import { gateway, OnMessage, type WebSocketClient } from '../websocket';
import { buildAsyncAPI } from '../websocket/asyncapi/document';
import { Emits } from '../websocket/asyncapi/emits';
import { serveAsyncAPI, type ServeAsyncAPIOptions } from '../websocket/asyncapi/route';
import type { AsyncAPIDocument } from '../websocket/asyncapi/types';
import { SECRET } from './fixtures/auth-tokens';

// The gateways are exported: their handlers' return types are read from this file, found as the module exporting them.

export class Subscribe {
  @IsString() @Length(1, 50) room!: string;
}

export class TaskOut {
  @IsInt() id!: number;
  @IsString() title!: string;
}

export class Kick {
  @IsString() user!: string;
}

/** A JWT guard whose every gateway needs `feed:read`. */
export class RequireReader extends JwtAuth {
  static readonly scopes = ['feed:read'];
  constructor() {
    super({ secret: SECRET });
  }
}

export class RequireKey extends Middleware {
  static readonly security = apiKeyHeader('X-Admin-Key', { schemeName: 'adminKey' });
  dispatch(request: Request, callNext: CallNext) {
    return callNext(request);
  }
}

const OIDC = 'https://auth.example.com/.well-known/openid-configuration';

export class OidcGuard extends JwtAuth {
  static readonly security: SecurityScheme = { schemeName: 'oidc', type: 'openIdConnect', openIdConnectUrl: OIDC };
  constructor() {
    super({ secret: SECRET });
  }
}

export class OAuthGuard extends JwtAuth {
  static readonly security: SecurityScheme = {
    schemeName: 'oauth',
    type: 'oauth2',
    flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { admin: 'Administer', 'keys:rotate': 'Rotate keys' } } },
  };
  constructor() {
    super({ secret: SECRET });
  }
}

@Use(RequireReader)
@Emits('created', TaskOut, { description: 'A task was created' })
@Emits('hello')
export class RoomFeed extends gateway('/ws/rooms/{room}') {
  @OnMessage('subscribe') subscribe(client: WebSocketClient, data: Subscribe) {
    client.join(data.room);
    return { event: 'subscribed' as const, data: { room: data.room } };
  }

  @OnMessage('ping') ping(): { event: 'pong' } {
    return { event: 'pong' };
  }

  @OnMessage('purge') @Scopes('admin') purge(): void {}

  @OnMessage('audit') @Use(RequireKey) audit(_client: WebSocketClient, data: unknown) {
    return { event: 'audited', data };
  }
}

export class Echo extends gateway('/ws/echo') {
  @OnMessage('echo') echo(_client: WebSocketClient, data: unknown) {
    return { event: 'echo', data };
  }
}

@Use(OidcGuard)
@Scopes('admin')
export class AdminFeed extends gateway('/ws/admin/{tenant}/{topic}') {
  @OnMessage('kick') async kick(_client: WebSocketClient, _data: Kick): Promise<void> {}

  @OnMessage('rotate') @Use(OAuthGuard) @Scopes('keys:rotate') rotate(): { event: 'rotated'; data: { at: number } } {
    return { event: 'rotated', data: { at: Date.now() } };
  }
}

const INFO = { title: 'Feeds', version: '2.1.0', description: 'Live feeds' };
const ERROR = { $ref: '#/channels/RoomFeed/messages/error' };
const JWT_READER = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', 'x-scopes': ['feed:read'] };

function envelope(event: string, data: object, required = ['event', 'data']) {
  return { type: 'object', properties: { event: { type: 'string', const: event }, data }, required };
}

async function errorsOf(document: AsyncAPIDocument) {
  const { document: parsed, diagnostics } = await new Parser().parse(document as never);
  const at = (severity: DiagnosticSeverity) =>
    diagnostics.filter((diagnostic) => diagnostic.severity === severity).map((diagnostic) => `${diagnostic.code} ${diagnostic.message} at ${diagnostic.path.join('/')}`);
  return { parsed, errors: at(DiagnosticSeverity.Error), warnings: at(DiagnosticSeverity.Warning) };
}

describe('the AsyncAPI document of the gateways', () => {
  let document: AsyncAPIDocument;
  before(() => {
    document = buildAsyncAPI(INFO, [RoomFeed, Echo, AdminFeed]);
  });

  it('is AsyncAPI 3.0.0 that @asyncapi/parser reads without an error or a warning', async () => {
    const { parsed, errors, warnings } = await errorsOf(document);
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
    assert.ok(parsed);
    assert.deepEqual(parsed.channels().all().map((channel) => channel.address()), ['/ws/rooms/{room}', '/ws/echo', '/ws/admin/{tenant}/{topic}']);
    const subscribe = parsed.operations().get('RoomFeed.receive.subscribe')!;
    assert.equal(subscribe.action(), 'receive');
    assert.deepEqual(subscribe.reply()!.messages().all().map((message) => message.name()), ['subscribe.reply', 'error']);
    assert.equal(parsed.operations().get('RoomFeed.send.created')!.action(), 'send');
  });

  it("says the app's title, version and description, no servers (the app does not know its public host), JSON content", () => {
    assert.equal(document.asyncapi, '3.0.0');
    assert.deepEqual(document.info, INFO);
    assert.equal(document.defaultContentType, 'application/json');
    assert.equal('servers' in document, false);
  });

  it('has a channel per gateway: the path as its address, its {name} parameters, every frame sent on it', () => {
    const { messages, ...channel } = document.channels.RoomFeed;
    assert.deepEqual(channel, {
      address: '/ws/rooms/{room}',
      title: 'RoomFeed',
      description: 'Open a WebSocket to this path on the host that serves these docs (ws:// or wss://). Every message, both ways, is JSON text {"event": "<name>", "data": ...}.',
      parameters: { room: { description: 'The {room} segment of the path (client.params.room).' } },
      bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
    });
    assert.deepEqual(Object.keys(messages), ['error', 'subscribe', 'subscribe.reply', 'ping', 'ping.reply', 'purge', 'audit', 'audit.reply', 'created', 'hello']);
    assert.deepEqual(document.channels.AdminFeed.parameters, {
      tenant: { description: 'The {tenant} segment of the path (client.params.tenant).' },
      topic: { description: 'The {topic} segment of the path (client.params.topic).' },
    });
    assert.equal('parameters' in document.channels.Echo, false);
    assert.deepEqual(Object.keys(document.channels), ['RoomFeed', 'Echo', 'AdminFeed']);
  });

  it('receives each @OnMessage event as the envelope {event, data}, data the schema of its DTO class (required, as it is validated)', () => {
    const { messages } = document.channels.RoomFeed;
    assert.deepEqual(messages.subscribe, {
      name: 'subscribe',
      title: 'subscribe',
      summary: 'Handled by subscribe(); data that breaks the rules of Subscribe is answered with an error frame (the body of the HTTP 422), and the handler does not run.',
      payload: envelope('subscribe', { $ref: '#/components/schemas/Subscribe' }),
    });
    assert.deepEqual(messages.ping, { name: 'ping', title: 'ping', summary: 'Handled by ping(), which takes no data.', payload: envelope('ping', {}, ['event']) });
    assert.deepEqual(document.channels.Echo.messages.echo, { name: 'echo', title: 'echo', summary: 'Handled by echo(); its data is passed as sent.', payload: envelope('echo', {}, ['event']) });
    assert.deepEqual(document.components.schemas!.Subscribe, { type: 'object', properties: { room: { type: 'string', minLength: 1, maxLength: 50 } }, required: ['room'] });
    assert.deepEqual(document.operations['RoomFeed.receive.subscribe'].messages, [{ $ref: '#/channels/RoomFeed/messages/subscribe' }]);
    assert.deepEqual(document.operations['RoomFeed.receive.subscribe'].channel, { $ref: '#/channels/RoomFeed' });
  });

  it('replies with what the handler returns (its type read from the source), nothing for void, and always the error frame', () => {
    const { operations, channels } = document;
    const reply = (id: string) => operations[id].reply;
    assert.deepEqual(reply('RoomFeed.receive.subscribe'), { channel: { $ref: '#/channels/RoomFeed' }, messages: [{ $ref: '#/channels/RoomFeed/messages/subscribe.reply' }, ERROR] });
    assert.deepEqual(channels.RoomFeed.messages['subscribe.reply'], {
      name: 'subscribe.reply',
      title: 'Reply to subscribe',
      summary: 'What the handler returns, sent as JSON to the client whose message it handled.',
      payload: envelope('subscribed', { type: 'object', properties: { room: { type: 'string' } }, required: ['room'] }),
    });
    assert.deepEqual((channels.RoomFeed.messages['ping.reply'] as { payload: object }).payload, { type: 'object', properties: { event: { type: 'string', const: 'pong' } }, required: ['event'] });
    assert.deepEqual(reply('RoomFeed.receive.purge'), { channel: { $ref: '#/channels/RoomFeed' }, messages: [ERROR] });
    assert.deepEqual(reply('AdminFeed.receive.kick')!.messages, [{ $ref: '#/channels/AdminFeed/messages/error' }], 'async void: no reply but the error frame');
    assert.deepEqual(channels.RoomFeed.messages.error, { $ref: '#/components/messages/WebSocketError' });
    assert.deepEqual(document.components.messages.WebSocketError.payload, envelope('error', { $ref: '#/components/schemas/HTTPError' }));
    assert.deepEqual(document.components.schemas!.HTTPError, { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
  });

  it('replies with any JSON value when the return types cannot be read', async () => {
    const untyped = buildAsyncAPI(INFO, [RoomFeed], { sourceTypes: false });
    assert.deepEqual(untyped.channels.RoomFeed.messages['subscribe.reply'], {
      name: 'subscribe.reply',
      title: 'Reply to subscribe',
      summary: 'What the handler returns, sent as JSON to the client whose message it handled (its type could not be read from the source: any JSON value).',
      payload: {},
    });
    assert.deepEqual(untyped.operations['RoomFeed.receive.purge'].reply!.messages.length, 2, 'void is not known either: an untyped reply');
    assert.deepEqual((await errorsOf(untyped)).errors, []);
  });

  it("takes the handlers' types from a given table (a build's), keyed by the gateway's file", () => {
    const echoed = { type: 'object', properties: { event: { type: 'string', const: 'echo' }, data: {} }, required: ['event'] };
    const sourceTypes = { files: { [__filename]: { 'Echo.echo': { returns: { kind: 'json' as const, schema: { $ref: '#/components/schemas/Echoed' } } } } }, schemas: { Echoed: echoed } };
    const given = buildAsyncAPI(INFO, [Echo], { sourceTypes });
    assert.deepEqual((given.channels.Echo.messages['echo.reply'] as { payload: object }).payload, { $ref: '#/components/schemas/Echoed' });
    assert.deepEqual(given.components.schemas!.Echoed, echoed);
  });

  it('sends each @Emits event (broadcasts, greetings) as a send operation, data the schema of its class', () => {
    const { messages } = document.channels.RoomFeed;
    assert.deepEqual(messages.created, { name: 'created', title: 'created', description: 'A task was created', payload: envelope('created', { $ref: '#/components/schemas/TaskOut' }) });
    assert.deepEqual(messages.hello, { name: 'hello', title: 'hello', payload: envelope('hello', {}, ['event']) });
    assert.deepEqual(document.components.schemas!.TaskOut, { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } }, required: ['id', 'title'] });
    assert.deepEqual(document.operations['RoomFeed.send.created'], {
      action: 'send',
      channel: { $ref: '#/channels/RoomFeed' },
      title: 'RoomFeed: created',
      messages: [{ $ref: '#/channels/RoomFeed/messages/created' }],
      security: [JWT_READER],
    });
    assert.deepEqual(Object.keys(document.operations), [
      'RoomFeed.receive.subscribe', 'RoomFeed.receive.ping', 'RoomFeed.receive.purge', 'RoomFeed.receive.audit', 'RoomFeed.send.created', 'RoomFeed.send.hello',
      'Echo.receive.echo', 'AdminFeed.receive.kick', 'AdminFeed.receive.rotate',
    ]);
  });

  it("secures each operation with the upgrade's guards and scopes, and a handler's own @Use and @Scopes on its message", () => {
    const { operations } = document;
    assert.deepEqual(operations['RoomFeed.receive.subscribe'].security, [JWT_READER], "JwtAuth's static scopes");
    assert.deepEqual(operations['RoomFeed.receive.purge'].security, [{ ...JWT_READER, 'x-scopes': ['feed:read', 'admin'] }], "the handler's @Scopes add to the guard's");
    assert.deepEqual(operations['RoomFeed.receive.audit'].security, [JWT_READER, { $ref: '#/components/securitySchemes/adminKey' }]);
    assert.deepEqual(operations['RoomFeed.receive.audit']['x-security-requirements'], [{ bearerAuth: ['feed:read'], adminKey: [] }], 'two guards, both needed');
    assert.equal('security' in operations['Echo.receive.echo'], false, 'an open gateway');
    assert.deepEqual(operations['AdminFeed.receive.kick'].security, [{ type: 'openIdConnect', openIdConnectUrl: OIDC, scopes: ['admin'] }]);
    const oauth = { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', availableScopes: { admin: 'Administer', 'keys:rotate': 'Rotate keys' } } } };
    assert.deepEqual(operations['AdminFeed.receive.rotate'].security, [
      { type: 'openIdConnect', openIdConnectUrl: OIDC, scopes: ['admin', 'keys:rotate'] },
      { ...oauth, scopes: ['admin', 'keys:rotate'] },
    ]);
    assert.deepEqual(document.components.securitySchemes, {
      adminKey: { type: 'httpApiKey', name: 'X-Admin-Key', in: 'header' },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      oauth,
      oidc: { type: 'openIdConnect', openIdConnectUrl: OIDC },
    });
  });

  it('gives a gateway that only pushes (no handler, no @Emits) its channel, with no operation', async () => {
    class Silent extends gateway('/ws/silent') {}
    const silent = buildAsyncAPI(INFO, [Silent], { sourceTypes: false });
    assert.deepEqual(Object.keys(silent.channels.Silent.messages), ['error']);
    assert.deepEqual(silent.operations, {});
    assert.deepEqual((await errorsOf(silent)).errors, []);
  });
});

describe('@Emits', () => {
  it('refuses a class that is not a gateway, an empty event name, data that is not a class, an event declared twice', () => {
    const refused = (decorate: () => unknown, reason: RegExp) =>
      assert.throws(decorate, (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_GATEWAY' && reason.test(error.message));
    refused(() => {
      @Emits('created')
      class NotAGateway {}
      return NotAGateway;
    }, /NotAGateway: @Emits: it is for WebSocket gateways/);
    refused(() => {
      @Emits('')
      class Empty extends gateway('/ws/a') {}
      return Empty;
    }, /Empty: @Emits: its event name must be a string of 1 to 200 characters/);
    refused(() => {
      @Emits('created', 'TaskOut' as never)
      class Named extends gateway('/ws/b') {}
      return Named;
    }, /Named: @Emits: created's data must be a class or \[Class\]/);
    refused(() => {
      @Emits('created', TaskOut)
      @Emits('created')
      class Twice extends gateway('/ws/c') {}
      return Twice;
    }, /Twice: @Emits: "created" is declared twice/);
  });

  it("documents [Class] as an array, keeps reading order, and a subclass's declaration of an event wins", () => {
    @Emits('listed', [TaskOut])
    @Emits('created', TaskOut)
    class Base extends gateway('/ws/base') {}
    @Emits('created', Subscribe)
    class Child extends Base {}
    const { channels, operations } = buildAsyncAPI(INFO, [Child], { sourceTypes: false });
    assert.deepEqual(Object.keys(operations), ['Child.send.listed', 'Child.send.created']);
    assert.deepEqual((channels.Child.messages.listed as { payload: object }).payload, envelope('listed', { type: 'array', items: { $ref: '#/components/schemas/TaskOut' } }));
    assert.deepEqual((channels.Child.messages.created as { payload: object }).payload, envelope('created', { $ref: '#/components/schemas/Subscribe' }));
  });

  it('keeps event names that are no JSON pointer token apart in the channel, each named as sent', async () => {
    @Emits('task/created')
    @Emits('task created')
    class Odd extends gateway('/ws/odd') {
      @OnMessage('task created') create() {}
    }
    const document = buildAsyncAPI(INFO, [Odd], { sourceTypes: false });
    const names = Object.entries(document.channels.Odd.messages).map(([key, message]) => [key, (message as { name?: string }).name]);
    assert.deepEqual(names, [
      ['error', undefined],
      ['task_created', 'task created'],
      ['task_created.reply', 'task created.reply'],
      ['task_created_2', 'task/created'],
      ['task_created_3', 'task created'],
    ]);
    assert.deepEqual((await errorsOf(document)).errors, []);
  });
});

const realtime = (gateways: Parameters<typeof serveAsyncAPI>[1], options?: ServeAsyncAPIOptions): Plugin => ({
  name: 'realtime',
  register: (host) => serveAsyncAPI(host, gateways, options),
});

describe('GET /docs/asyncapi.json', () => {
  const app = () => new BaseRouter(INFO).register(realtime([RoomFeed, Echo]));

  it('answers the document as JSON, left out of the OpenAPI document, with an ETag', async () => {
    const client = new TestClient(app());
    const res = await client.get('/docs/asyncapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json(), buildAsyncAPI(INFO, [RoomFeed, Echo]));
    const again = await client.get('/docs/asyncapi.json', { headers: { 'if-none-match': res.headers.etag as string } });
    assert.equal(again.status, 304);
    assert.deepEqual(Object.keys((await client.get('/docs/openapi.json')).json().paths), []);
  });

  it('names the schemes of the app-wide middleware it is given on every operation', async () => {
    const client = new TestClient(new BaseRouter(INFO).register(realtime([Echo], { middleware: () => [new RequireKey()] })));
    const { operations } = (await client.get('/docs/asyncapi.json')).json() as AsyncAPIDocument;
    assert.deepEqual(operations['Echo.receive.echo'].security, [{ $ref: '#/components/securitySchemes/adminKey' }]);
  });

  it('is linked from the landing page, Swagger UI and ReDoc', async () => {
    const client = new TestClient(app());
    const link = '<a href="/docs/asyncapi.json">Realtime API (AsyncAPI)</a>';
    for (const page of ['/docs', '/docs/swagger', '/docs/redoc']) {
      const res = await client.get(page);
      assert.equal(res.status, 200, page);
      assert.ok(res.text.includes(link), `${page} links the AsyncAPI document`);
    }
  });

  it('follows the docs path, and is absent without docs, without gateways, and from an app without the plug-in', async () => {
    const moved = new TestClient(new BaseRouter({ ...INFO, docs: { path: '/api-docs' } }).register(realtime([Echo])));
    assert.equal((await moved.get('/api-docs/asyncapi.json')).status, 200);
    assert.ok((await moved.get('/api-docs/swagger')).text.includes('<a href="/api-docs/asyncapi.json">'));
    assert.equal((await new TestClient(new BaseRouter({ ...INFO, docs: false }).register(realtime([Echo]))).get('/docs/asyncapi.json')).status, 404);
    for (const plain of [new BaseRouter(INFO), new BaseRouter(INFO).register(realtime([]))]) {
      const client = new TestClient(plain);
      assert.equal((await client.get('/docs/asyncapi.json')).status, 404);
      for (const page of ['/docs', '/docs/swagger', '/docs/redoc']) assert.equal((await client.get(page)).text.includes('asyncapi'), false, page);
    }
  });
});
