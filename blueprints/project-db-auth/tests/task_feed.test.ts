import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BaseRouter, Config } from 'trellis';
import { signToken } from 'trellis/auth';
import { testDatabase } from 'trellis/database';
import { websockets } from 'trellis/plugins';
import { TestClient } from 'trellis/testing';
import { TaskFeed } from '../routers/task_feed';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// The tests' own signing key, given to the guard as config.yaml's `auth.secret` (no .env needed).
const SECRET = 'the-tasks-tests-sign-their-tokens-with-this';

// A fresh app per test on a fresh database (dropped when the test ends): the tasks router, and the feed served by
// the `websockets` plug-in (which `trellis run` registers by itself for the gateways in routers/).
function client(t: TestContext): TestClient {
  const app = new BaseRouter()
    .provide(new Config({ auth: { secret: SECRET } }))
    .register(testDatabase({ migrations: 'migrations' }))
    .provide(TaskService)
    .includeRouter(TaskRouter)
    .register(websockets({ gateways: [TaskFeed] }));
  const client = new TestClient(app);
  t.after(() => client.close());
  return client;
}

/** Request options that send a token allowed to write tasks. */
async function writer(json?: object) {
  const token = await signToken({ secret: SECRET, scopes: ['tasks:write'], subject: 'tester' });
  return { headers: { authorization: `Bearer ${token}` }, json };
}

/** The next message `socket` receives, parsed: ask before the change that sends it. */
function nextMessage(socket: Awaited<ReturnType<TestClient['websocket']>>): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
}

describe('task feed', () => {
  it('sends every connected client, with or without a token, a created message when a task is created over HTTP', async (t) => {
    const tasks = client(t);
    const sockets = [await tasks.websocket('/ws/tasks'), await tasks.websocket('/ws/tasks')];
    const messages = sockets.map(nextMessage);
    const res = await tasks.post('/tasks', await writer({ title: 'Try trellis' }));
    assert.equal(res.status, 201);
    for (const message of await Promise.all(messages)) assert.deepEqual(message, { event: 'created', data: res.json() });
  });

  it('sends updated and deleted messages', async (t) => {
    const tasks = client(t);
    const socket = await tasks.websocket('/ws/tasks');
    const updated = nextMessage(socket);
    const res = await tasks.put('/tasks/1', await writer({ title: 'Read it twice', completed: true }));
    assert.deepEqual(await updated, { event: 'updated', data: res.json() });
    const deleted = nextMessage(socket);
    await tasks.delete('/tasks/1', await writer());
    assert.deepEqual(await deleted, { event: 'deleted', data: res.json() });
  });
});
