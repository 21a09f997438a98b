import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseRouter } from '../../framework/index';
import { TestClient } from '../../framework/testing';
import { addResource } from '../index';
import { tempDir } from '../test-support/tree';

// An in-memory resource as `add resource` writes it, loaded as `trellis run` loads it: it serves, and the OpenAPI
// document types its answers from the handlers' return types.

describe('an in-memory resource at work', () => {
  const project = tempDir();
  let app: BaseRouter;

  before(async () => {
    writeFileSync(join(project.path, 'config.yaml'), '');
    await addResource({ name: 'notes', dir: project.path });
    const { NotesRouter } = require(join(project.path, 'routers', 'notes.ts'));
    const { NotesService } = require(join(project.path, 'services', 'notes_service.ts'));
    app = new BaseRouter({ title: 'Shop' }).provide(NotesService).includeRouter(NotesRouter);
  });
  after(() => project.remove());

  it('serves the five routes', async () => {
    const client = new TestClient(app);
    assert.equal((await client.post('/notes', { json: { name: 'a' } })).status, 201);
    assert.deepEqual((await client.get('/notes')).json(), { items: [{ id: 1, name: 'a', description: '' }], total: 1, offset: 0, limit: 20 });
    assert.deepEqual(app.routes.filter((r) => !r.path.startsWith('/docs')).map((r) => `${r.method} ${r.path}`), ['GET /notes', 'GET /notes/{note_id}', 'POST /notes', 'PUT /notes/{note_id}', 'DELETE /notes/{note_id}']);
  });

  it('is typed in the OpenAPI document: the page, the record, the body, the bounds', () => {
    const doc = app.openapi() as any;
    const body = (op: any) => op.responses[Object.keys(op.responses).find((s) => /^2/.test(s))!].content['application/json'].schema;
    const resolve = (schema: any) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema);
    const page = resolve(body(doc.paths['/notes'].get));
    assert.deepEqual(Object.keys(page.properties).sort(), ['items', 'limit', 'offset', 'total']);
    const note = resolve(resolve(page.properties.items).items ?? page.properties.items.items);
    assert.deepEqual(Object.keys(note.properties).sort(), ['description', 'id', 'name']);
    assert.equal(note.properties.id.type, 'number');
    assert.deepEqual(Object.keys(resolve(body(doc.paths['/notes'].post)).properties).sort(), ['description', 'id', 'name']);
    assert.deepEqual(doc.components.schemas.NoteIn.properties.name, { type: 'string', minLength: 1, maxLength: 200 });
    const limit = doc.paths['/notes'].get.parameters.find((p: any) => p.name === 'limit');
    assert.deepEqual(limit.schema, { type: 'integer', minimum: 1, maximum: 100, default: 20 });
  });
});
