import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BaseRouter, Config } from 'trellis';
import { signToken } from 'trellis/auth';
import { testDatabase } from 'trellis/database';
import { TestClient } from 'trellis/testing';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// The tests' own signing key, given to the guard as config.yaml's `auth.secret` (no .env needed).
const SECRET = 'the-tasks-tests-sign-their-tokens-with-this';

// A fresh app per test on a fresh database, migrated (tasks 1 and 2 in it), dropped when the test ends: no test
// sees another's changes.
function client(t: TestContext): TestClient {
  const app = new BaseRouter()
    .provide(new Config({ auth: { secret: SECRET } }))
    .register(testDatabase({ migrations: 'migrations' }))
    .provide(TaskService)
    .includeRouter(TaskRouter);
  const client = new TestClient(app);
  t.after(() => client.close());
  return client;
}

/** Request options that send a token carrying `scopes`. */
async function withToken(scopes: string[], json?: object) {
  const token = await signToken({ secret: SECRET, scopes, subject: 'tester' });
  return { headers: { authorization: `Bearer ${token}` }, json };
}

describe('tasks', () => {
  it('lists the two starting tasks, to anyone', async (t) => {
    const res = await client(t).get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), [
      { id: 1, title: 'Read the trellis README', completed: false },
      { id: 2, title: 'Write a router of my own', completed: false },
    ]);
  });

  it('creates a task with the next id and answers 201, given a token with tasks:write', async (t) => {
    const res = await client(t).post('/tasks', await withToken(['tasks:write'], { title: 'Try trellis' }));
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 3, title: 'Try trellis', description: '', completed: false });
  });

  it('never gives a deleted task\'s id out again', async (t) => {
    const tasks = client(t);
    const writer = (json?: object) => withToken(['tasks:write'], json);
    assert.equal((await tasks.post('/tasks', await writer({ title: 'Three' }))).json().id, 3);
    assert.deepEqual((await tasks.delete('/tasks/3', await writer())).json(), { message: 'Task 3 deleted' });
    assert.equal((await tasks.post('/tasks', await writer({ title: 'Four' }))).json().id, 4);
    assert.equal((await tasks.get('/tasks/3')).status, 404);
  });

  it('replaces a task', async (t) => {
    const tasks = client(t);
    const res = await tasks.put('/tasks/1', await withToken(['tasks:write'], { title: 'Read it twice', completed: true }));
    assert.deepEqual(res.json(), { id: 1, title: 'Read it twice', description: '', completed: true });
    assert.deepEqual((await tasks.get('/tasks/1')).json(), res.json());
  });

  it('answers 401 to a write without a token, and changes nothing', async (t) => {
    const tasks = client(t);
    const res = await tasks.put('/tasks/1', { json: { title: 'Mine now' } });
    assert.equal(res.status, 401);
    assert.match(String(res.headers['www-authenticate']), /^Bearer\b/);
    assert.equal((await tasks.get('/tasks/1')).json().title, 'Read the trellis README');
  });

  it('answers 403 to a write whose token lacks tasks:write', async (t) => {
    const res = await client(t).delete('/tasks/1', await withToken(['tasks:read']));
    assert.equal(res.status, 403);
    assert.match(String(res.headers['www-authenticate']), /error="insufficient_scope"/);
  });

  it('answers 404 with an error for a task that does not exist', async (t) => {
    const res = await client(t).get('/tasks/99');
    assert.equal(res.status, 404);
    assert.equal(typeof res.json().error, 'string');
  });

  it('rejects a task without a title with 422', async (t) => {
    const res = await client(t).post('/tasks', await withToken(['tasks:write'], { description: 'no title' }));
    assert.equal(res.status, 422);
    assert.equal(res.json().details[0].field, 'title');
  });
});
