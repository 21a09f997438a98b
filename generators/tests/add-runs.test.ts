import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, JSONResponse, Middleware } from '../../framework/index';
import type { Class } from '../../framework/metadata';
import { TestClient } from '../../framework/testing';
import { addArtifact } from '../index';
import { tempDir } from '../test-support/tree';

// The files `add` writes are code that works as written: loaded the way `trellis run` loads them.

describe('generated files at work', () => {
  const project = tempDir();
  let modules: Record<string, any>;

  before(async () => {
    writeFileSync(join(project.path, 'config.yaml'), '');
    await addArtifact({ kind: 'router', name: 'order-items', dir: project.path });
    await addArtifact({ kind: 'router', name: 'reports', dir: project.path, path: '/api/reports' });
    await addArtifact({ kind: 'service', name: 'billing', dir: project.path });
    await addArtifact({ kind: 'middleware', name: 'audit', dir: project.path });
    modules = {
      ...require(join(project.path, 'routers', 'order_items.ts')),
      ...require(join(project.path, 'routers', 'reports.ts')),
      ...require(join(project.path, 'services', 'billing_service.ts')),
      ...require(join(project.path, 'middleware', 'audit.ts')),
    };
  });
  after(() => project.remove());

  it('routers answer GET on their base path with a JSON list', async () => {
    const app = new BaseRouter({ docs: false }).includeRouter(modules.OrderItemsRouter).includeRouter(modules.ReportsRouter);
    const client = new TestClient(app);
    for (const path of ['/order-items', '/api/reports']) {
      const res = await client.get(path);
      assert.equal(res.status, 200, path);
      assert.deepEqual(res.json(), []);
    }
    assert.deepEqual(app.routes.map((r) => `${r.method} ${r.path} ${r.label}`), [
      'GET /order-items OrderItemsRouter.list',
      'GET /api/reports ReportsRouter.list',
    ]);
  });

  it('the middleware passes requests and responses through unchanged', async () => {
    assert.ok(modules.Audit.prototype instanceof Middleware);
    const app = new BaseRouter().addMiddleware(modules.Audit as Class<Middleware>).includeRouter(modules.OrderItemsRouter);
    const res = await new TestClient(app).get('/order-items');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), []);
    const direct = await new modules.Audit().dispatch({} as never, async () => new JSONResponse({ ok: true }, { status: 202 }));
    assert.equal(direct.status, 202);
  });

  it('the service keeps what it is given', () => {
    const billing = new modules.BillingService();
    assert.deepEqual(billing.add({ id: 1 }), { id: 1 });
    assert.deepEqual(billing.all(), [{ id: 1 }]);
  });
});
