import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Config } from 'trellis';
import { signToken } from 'trellis/auth';
import { TestClient } from 'trellis/testing';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// The tests' own signing key, given to the guard as config.yaml's `auth.secret` (no .env needed).
const SECRET = 'the-tasks-tests-sign-their-tokens-with-this';

// A fresh app per test: the tasks live in memory, so no test sees another's changes.
function client(): TestClient {
  const app = new BaseRouter().provide(new Config({ auth: { secret: SECRET } })).provide(TaskService).includeRouter(TaskRouter);
  return new TestClient(app);
}

/** Request options that send a token carrying `scopes`. */
async function withToken(scopes: string[], json?: object) {
  const token = await signToken({ secret: SECRET, scopes, subject: 'tester' });
  return { headers: { authorization: `Bearer ${token}` }, json };
}

describe('tasks', () => {
  it('lists the two starting tasks, to anyone', async () => {
    const res = await client().get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.json().map((task: { id: number }) => task.id),
      [1, 2],
    );
  });

  it('creates a task with the next id and answers 201, given a token with tasks:write', async () => {
    const res = await client().post('/tasks', await withToken(['tasks:write'], { title: 'Try trellis' }));
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 3, title: 'Try trellis', description: '', completed: false });
  });

  it('answers 401 to a write without a token', async () => {
    const res = await client().post('/tasks', { json: { title: 'Try trellis' } });
    assert.equal(res.status, 401);
    assert.match(String(res.headers['www-authenticate']), /^Bearer\b/);
  });

  it('answers 403 to a write whose token lacks tasks:write', async () => {
    const res = await client().delete('/tasks/1', await withToken(['tasks:read']));
    assert.equal(res.status, 403);
    assert.match(String(res.headers['www-authenticate']), /error="insufficient_scope"/);
  });

  it('answers 404 with an error for a task that does not exist', async () => {
    const res = await client().get('/tasks/99');
    assert.equal(res.status, 404);
    assert.equal(typeof res.json().error, 'string');
  });

  it('rejects a task without a title with 422', async () => {
    const res = await client().post('/tasks', await withToken(['tasks:write'], { description: 'no title' }));
    assert.equal(res.status, 422);
    assert.equal(res.json().details[0].field, 'title');
  });
});
