import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { TestClient } from '../../framework/testing';
import { discover } from '../discover';
import { loadProject } from '../load';
import { cleanup } from './support';
import { healthyWith } from './project-support';
import { closed, frames } from '../../framework/tests/fixtures/websocket-frames';

after(cleanup);

const FEED = [
  "import { Injectable } from 'trellis';",
  "import { gateway, OnMessage, type WebSocketClient } from 'trellis/websocket';",
  "import { TaskService } from '../services/task_service';",
  "export class FeedBase extends gateway('/ws/feed/{room}') {}",
  '@Injectable()',
  'export class TaskFeed extends FeedBase {',
  '  constructor(private readonly tasks: TaskService) { super(); }',
  "  onConnect(client: WebSocketClient) { client.send({ event: 'hello', data: { room: client.params.room, injected: typeof this.tasks } }); }",
  "  @OnMessage('ping') ping() { return { event: 'pong' }; }",
  '}',
].join('\n');

describe('trellis run: WebSocket gateways in routers/', () => {
  it('discovery finds the gateway classes (a base class only through its subclass)', () => {
    const found = discover(healthyWith({ 'routers/feed.ts': FEED }));
    assert.deepEqual(found.failures, []);
    assert.deepEqual(found.gateways?.map((g) => [g.cls.name, g.file]), [['TaskFeed', 'routers/feed.ts']]);
    assert.deepEqual(found.models.map((m) => m.cls.name), ['TaskIn']);
  });

  it('serves them with injection, without a websockets: section, and closes them with 1001 when the app drains', async () => {
    const { app } = loadProject(healthyWith({ 'routers/feed.ts': FEED }), { port: 1234 });
    const client = new TestClient(app);
    after(() => client.close());
    const socket = await client.websocket('/ws/feed/general');
    const received = frames(socket);
    assert.deepEqual(await received.next(), { event: 'hello', data: { room: 'general', injected: 'object' } });
    socket.send(JSON.stringify({ event: 'ping' }));
    assert.deepEqual(await received.next(), { event: 'pong' });
    const done = closed(socket);
    app.drain();
    assert.deepEqual(await done, { code: 1001, reason: 'server shutting down' });
  });

  it('a websockets: value that does not fit is a problem at its line of config.yaml', () => {
    const dir = healthyWith({ 'routers/feed.ts': FEED });
    const config = require('node:fs').readFileSync(`${dir}/config.yaml`, 'utf8') as string;
    require('node:fs').writeFileSync(`${dir}/config.yaml`, `${config}\nwebsockets:\n  max_payload: lots\n`);
    assert.throws(() => loadProject(dir, { port: 1234 }), (error: Error) => /max_payload/.test(error.message) && /config\.yaml/.test(String((error as any).problems?.[0]?.file ?? error.message)));
  });
});
