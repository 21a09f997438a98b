import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BaseRouter } from 'trellis';
import { testDatabase } from 'trellis/database';
import { TestClient } from 'trellis/testing';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// A fresh app per test on a fresh database, migrated (tasks 1 and 2 in it), dropped when the test ends: no test
// sees another's changes.
function client(t: TestContext): TestClient {
  const app = new BaseRouter().register(testDatabase({ migrations: 'migrations' })).provide(TaskService).includeRouter(TaskRouter);
  const client = new TestClient(app);
  t.after(() => client.close());
  return client;
}

describe('tasks', () => {
  it('lists the two starting tasks', async (t) => {
    const res = await client(t).get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), [
      { id: 1, title: 'Read the trellis README', completed: false },
      { id: 2, title: 'Write a router of my own', completed: false },
    ]);
  });

  it('creates a task with the next id and answers 201', async (t) => {
    const res = await client(t).post('/tasks', { json: { title: 'Try trellis' } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 3, title: 'Try trellis', description: '', completed: false });
  });

  it('never gives a deleted task\'s id out again', async (t) => {
    const tasks = client(t);
    assert.equal((await tasks.post('/tasks', { json: { title: 'Three' } })).json().id, 3);
    assert.deepEqual((await tasks.delete('/tasks/3')).json(), { message: 'Task 3 deleted' });
    assert.equal((await tasks.post('/tasks', { json: { title: 'Four' } })).json().id, 4);
    assert.equal((await tasks.get('/tasks/3')).status, 404);
  });

  it('replaces a task', async (t) => {
    const tasks = client(t);
    const res = await tasks.put('/tasks/1', { json: { title: 'Read it twice', completed: true } });
    assert.deepEqual(res.json(), { id: 1, title: 'Read it twice', description: '', completed: true });
    assert.deepEqual((await tasks.get('/tasks/1')).json(), res.json());
  });

  it('answers 404 with an error for a task that does not exist', async (t) => {
    const res = await client(t).get('/tasks/99');
    assert.equal(res.status, 404);
    assert.equal(typeof res.json().error, 'string');
  });

  it('rejects a task without a title with 422', async (t) => {
    const res = await client(t).post('/tasks', { json: { description: 'no title' } });
    assert.equal(res.status, 422);
    assert.equal(res.json().details[0].field, 'title');
  });
});
