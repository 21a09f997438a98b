import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BaseRouter } from 'trellis';
import { testDatabase } from 'trellis/database';
import { websockets } from 'trellis/plugins';
import { TestClient } from 'trellis/testing';
import { TaskFeed } from '../routers/task_feed';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// A fresh app per test on a fresh database (dropped when the test ends): the tasks router, and the feed served by
// the `websockets` plug-in (which `trellis run` registers by itself for the gateways in routers/).
function client(t: TestContext): TestClient {
  const app = new BaseRouter()
    .register(testDatabase({ migrations: 'migrations' }))
    .provide(TaskService)
    .includeRouter(TaskRouter)
    .register(websockets({ gateways: [TaskFeed] }));
  const client = new TestClient(app);
  t.after(() => client.close());
  return client;
}

/** The next message `socket` receives, parsed: ask before the change that sends it. */
function nextMessage(socket: Awaited<ReturnType<TestClient['websocket']>>): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('task feed', () => {
  it('sends every connected client a created message when a task is created over HTTP', async (t) => {
    const tasks = client(t);
    const sockets = [await tasks.websocket('/ws/tasks'), await tasks.websocket('/ws/tasks')];
    const messages = sockets.map(nextMessage);
    const res = await tasks.post('/tasks', { json: { title: 'Try trellis' } });
    assert.equal(res.status, 201);
    for (const message of await Promise.all(messages)) assert.deepEqual(message, { event: 'created', data: res.json() });
  });

  it('sends updated and deleted messages', async (t) => {
    const tasks = client(t);
    const socket = await tasks.websocket('/ws/tasks');
    const updated = nextMessage(socket);
    const res = await tasks.put('/tasks/1', { json: { title: 'Read it twice', completed: true } });
    assert.deepEqual(await updated, { event: 'updated', data: res.json() });
    const deleted = nextMessage(socket);
    await tasks.delete('/tasks/1');
    assert.deepEqual(await deleted, { event: 'deleted', data: res.json() });
  });
});
