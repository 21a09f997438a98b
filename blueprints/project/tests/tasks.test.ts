import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter } from 'trellis';
import { TestClient } from 'trellis/testing';
import { TaskRouter } from '../routers/tasks';
import { TaskService } from '../services/task_service';

// A fresh app per test: the tasks live in memory, so no test sees another's changes.
function client(): TestClient {
  return new TestClient(new BaseRouter().provide(TaskService).includeRouter(TaskRouter));
}

describe('tasks', () => {
  it('lists the two starting tasks', async () => {
    const res = await client().get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.json().map((task: { id: number }) => task.id),
      [1, 2],
    );
  });

  it('creates a task with the next id and answers 201', async () => {
    const res = await client().post('/tasks', { json: { title: 'Try trellis' } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { id: 3, title: 'Try trellis', description: '', completed: false });
  });

  it('answers 404 with an error for a task that does not exist', async () => {
    const res = await client().get('/tasks/99');
    assert.equal(res.status, 404);
    assert.equal(typeof res.json().error, 'string');
  });

  it('rejects a task without a title with 422', async () => {
    const res = await client().post('/tasks', { json: { description: 'no title' } });
    assert.equal(res.status, 422);
    assert.equal(res.json().details[0].field, 'title');
  });
});
