import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import createClient from 'openapi-fetch';
import { BaseRouter } from 'trellis';
import { createLogger, loadProject } from 'trellis/internal';
import { TestClient } from 'trellis/testing';
import { renderClient } from '../client/render-client';
import { TaskRouter } from './fixtures/client-project/routers/tasks';
import { createApiClient, type Schemas } from './typed-client';
import type { paths } from './typed-client/schema';

// typed-client/ is what `trellis client` writes for fixtures/client-project; this file is type-checked with the
// repository (npm run typecheck), so each `@ts-expect-error` below must stay an error.
const FIXTURE = join(__dirname, 'fixtures', 'client-project');
const TYPED = join(__dirname, 'typed-client');

function testClient(): TestClient {
  const client = new TestClient(new BaseRouter().includeRouter(TaskRouter));
  after(() => client.close());
  return client;
}

describe('TestClient typed with the client trellis client writes', () => {
  it('is the client trellis client writes for the fixture today (regenerate: node bin/trellis.js client cli/tests/fixtures/client-project --out cli/tests/typed-client)', async () => {
    const { app } = loadProject(FIXTURE, { logger: createLogger({ level: 'silent' }) });
    for (const file of await renderClient(app.openapi())) assert.equal(readFileSync(join(TYPED, file.name), 'utf8'), file.text, file.name);
  });

  it("types openapi-fetch's answers through client.fetch, with no port", async () => {
    const api = createClient<paths>({ baseUrl: 'http://test', fetch: testClient().fetch });
    const { data, response } = await api.GET('/tasks/{task_id}', { params: { path: { task_id: 1 } } });
    assert.equal(response.status, 200);
    assert.ok(data);
    const title: string = data.title;
    // @ts-expect-error the document says title is a string
    const wrong: number = data.title;
    assert.deepEqual([title, wrong, data.done], ['Write the client', 'Write the client', false]);

    const created = await api.POST('/tasks', { body: { title: 'Typed' } });
    const task: Schemas['Task'] | undefined = created.data;
    assert.deepEqual([created.response.status, task], [201, { id: 2, title: 'Typed', done: false }]);
  });

  it('types the error answers and the parameters too', async () => {
    const api = createApiClient('http://test', { fetch: testClient().fetch });
    const missing = await api.GET('/tasks/{task_id}', { params: { path: { task_id: 99 } } });
    const message: string | undefined = missing.error?.error;
    assert.deepEqual([missing.response.status, message], [404, 'Task 99 not found']);
    // @ts-expect-error task_id is a number
    const invalid = await api.GET('/tasks/{task_id}', { params: { path: { task_id: 'one' } } });
    assert.equal(invalid.response.status, 422);
    // @ts-expect-error the API has no /users
    await api.GET('/users');
  });
});
