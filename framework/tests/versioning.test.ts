import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Post, router, Version } from '../index';
import { Path } from '../param';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

class TasksV1 extends router('/tasks', { version: '1' }) {
  @Get() list() { return [{ id: 1, title: 'v1' }]; }
  @Get('/{id}') one(@Path('id') id: number) { return { id, version: 1 }; }
  @Post() create() { return { created: 1 }; }
}

class TasksV2 extends router('/tasks', { version: '2' }) {
  @Get() list() { return { items: [{ id: 1, name: 'v2' }] }; }
  @Get('/{task_id}') one(@Path('task_id') taskId: number) { return { id: taskId, version: 2 }; }
}

class Shared extends router('/tasks', { version: ['1', '2'] }) {
  @Get('/stats') stats() { return { shared: true }; }
}

class Status extends router('/status') {
  @Get() status() { return { ok: true }; }
}

const app = (options: ConstructorParameters<typeof BaseRouter>[0] = {}) =>
  new BaseRouter({ sourceTypes: false, docs: false, ...options }).includeRouter(TasksV1).includeRouter(TasksV2).includeRouter(Shared).includeRouter(Status);

describe('URI versioning (the default)', () => {
  const client = new TestClient(app());

  it('serves both versions side by side under /v1 and /v2', async () => {
    assert.deepEqual((await client.get('/v1/tasks')).json(), [{ id: 1, title: 'v1' }]);
    assert.deepEqual((await client.get('/v2/tasks')).json(), { items: [{ id: 1, name: 'v2' }] });
    assert.deepEqual((await client.get('/v1/tasks/7')).json(), { id: 7, version: 1 });
    assert.deepEqual((await client.get('/v2/tasks/8')).json(), { id: 8, version: 2 });
  });

  it('serves a route of several versions under each, and version-neutral routes at their own path only', async () => {
    assert.deepEqual((await client.get('/v1/tasks/stats')).json(), { shared: true });
    assert.deepEqual((await client.get('/v2/tasks/stats')).json(), { shared: true });
    assert.deepEqual((await client.get('/status')).json(), { ok: true });
    assert.equal((await client.get('/v1/status')).status, 404);
    assert.equal((await client.get('/tasks')).status, 404);
  });

  it('answers 404 for a version no route has', async () => {
    const res = await client.get('/v3/tasks');
    assert.deepEqual([res.status, res.json()], [404, { error: 'Not Found' }]);
  });

  it('answers HEAD, OPTIONS and 405 per version: Allow lists the methods of that version\'s path', async () => {
    assert.equal((await client.head('/v2/tasks')).status, 200);
    const v1 = await client.options('/v1/tasks');
    assert.deepEqual([v1.status, v1.headers.allow], [204, 'GET, HEAD, OPTIONS, POST']);
    const v2 = await client.post('/v2/tasks', { json: {} });
    assert.deepEqual([v2.status, v2.headers.allow, v2.json()], [405, 'GET, HEAD, OPTIONS', { error: 'Method Not Allowed' }]);
  });

  it('lists one route per version, with its version and versioned path', () => {
    const routes = app().routes.filter((route) => route.label.startsWith('Tasks')).map((route) => `${route.method} ${route.path} ${route.version}`);
    assert.deepEqual(routes, [
      'GET /v1/tasks 1', 'GET /v1/tasks/{id} 1', 'POST /v1/tasks 1',
      'GET /v2/tasks 2', 'GET /v2/tasks/{task_id} 2',
    ]);
    assert.deepEqual(app().apiVersions, ['1', '2']);
  });

  it('takes another prefix, or none', async () => {
    const other = new TestClient(app({ versioning: { prefix: 'api-v' } }));
    assert.equal((await other.get('/api-v2/tasks')).status, 200);
    assert.equal((await other.get('/v2/tasks')).status, 404);
    const bare = new TestClient(app({ versioning: { prefix: '' } }));
    assert.deepEqual((await bare.get('/1/tasks/3')).json(), { id: 3, version: 1 });
  });
});

describe('header versioning', () => {
  const client = new TestClient(app({ versioning: { type: 'header' } }));
  const v = (version: string) => ({ headers: { 'x-api-version': version } });

  it('serves both versions at one path, chosen by the header', async () => {
    assert.deepEqual((await client.get('/tasks', v('1'))).json(), [{ id: 1, title: 'v1' }]);
    assert.deepEqual((await client.get('/tasks', v('2'))).json(), { items: [{ id: 1, name: 'v2' }] });
    assert.deepEqual((await client.get('/tasks/5', v(' 2 '))).json(), { id: 5, version: 2 });
    assert.deepEqual((await client.get('/tasks/stats', v('1'))).json(), { shared: true });
  });

  it('says the answers of versioned routes vary by the header, and those of neutral routes do not', async () => {
    assert.equal((await client.get('/tasks', v('1'))).headers.vary, 'x-api-version');
    assert.equal((await client.get('/tasks/5', v('2'))).headers.vary, 'x-api-version');
    assert.equal((await client.get('/status', v('1'))).headers.vary, undefined);
  });

  it('names path parameters as each version declares them', async () => {
    assert.deepEqual((await client.get('/tasks/4', v('1'))).json(), { id: 4, version: 1 });
    assert.deepEqual((await client.get('/tasks/4', v('2'))).json(), { id: 4, version: 2 });
  });

  it('serves version-neutral routes whatever the header says', async () => {
    for (const value of ['1', '9', 'garbage']) assert.deepEqual((await client.get('/status', v(value))).json(), { ok: true });
    assert.deepEqual((await client.get('/status')).json(), { ok: true });
  });

  it('refuses a versioned path without the header (no default) with a 400 naming the header', async () => {
    const res = await client.get('/tasks');
    assert.deepEqual([res.status, res.json()], [400, { error: "Missing x-api-version header: this API's versions are 1, 2" }]);
  });

  it('refuses an unknown version with a 400 that does not echo it', async () => {
    for (const value of ['3', '1;drop', '../', '%00', 'x'.repeat(8000), '1, 2', 'v1']) {
      const res = await client.get('/tasks', v(value));
      assert.deepEqual([res.status, res.json()], [400, { error: "Unknown API version in x-api-version: this API's versions are 1, 2" }], value.slice(0, 20));
    }
  });

  it('answers 404 for a known version that has no route at the path, and for unknown paths', async () => {
    class OnlyV1 extends router('/legacy', { version: '1' }) {
      @Get() old() { return 'old'; }
    }
    const c = new TestClient(app({ versioning: { type: 'header' } }).includeRouter(OnlyV1));
    assert.equal((await c.get('/legacy', v('1'))).status, 200);
    assert.deepEqual([(await c.get('/legacy', v('2'))).status, (await c.get('/legacy', v('2'))).json()], [404, { error: 'Not Found' }]);
    assert.equal((await c.get('/nowhere', v('2'))).status, 404);
  });

  it('answers HEAD, OPTIONS and 405 per version', async () => {
    assert.equal((await client.head('/tasks', v('2'))).status, 200);
    assert.equal((await client.options('/tasks', v('2'))).headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal((await client.options('/tasks', v('1'))).headers.allow, 'GET, HEAD, OPTIONS, POST');
    // A preflight carries no version: it gets the methods of every version.
    assert.equal((await client.options('/tasks')).headers.allow, 'GET, HEAD, OPTIONS, POST');
    const res = await client.post('/tasks', { ...v('2'), json: {} });
    assert.deepEqual([res.status, res.headers.allow], [405, 'GET, HEAD, OPTIONS']);
    assert.equal((await client.post('/tasks', { ...v('1'), json: {} })).status, 200);
  });

  it('uses defaultVersion (a name, or latest) when the header is absent', async () => {
    const one = new TestClient(app({ versioning: { type: 'header', defaultVersion: '1' } }));
    assert.deepEqual((await one.get('/tasks')).json(), [{ id: 1, title: 'v1' }]);
    assert.deepEqual((await one.get('/tasks', v('2'))).json(), { items: [{ id: 1, name: 'v2' }] });
    const latest = new TestClient(app({ versioning: { type: 'header', defaultVersion: 'latest' } }));
    assert.deepEqual((await latest.get('/tasks')).json(), { items: [{ id: 1, name: 'v2' }] });
    assert.equal((await latest.get('/tasks', v('nope'))).status, 400);
  });

  it('reads another header', async () => {
    const c = new TestClient(app({ versioning: { type: 'header', header: 'Accept-Version' } }));
    assert.equal((await c.get('/tasks', { headers: { 'accept-version': '2' } })).json().items.length, 1);
    assert.equal((await c.get('/tasks', v('2'))).status, 400);
  });

  it('serves a neutral route and a versioned one of one path: the version\'s when asked, else the neutral one', async () => {
    class Neutral extends router('/tasks') {
      @Get() all() { return 'neutral'; }
    }
    const c = new TestClient(new BaseRouter({ sourceTypes: false, docs: false, versioning: { type: 'header' } }).includeRouter(Neutral).includeRouter(TasksV2));
    assert.equal((await c.get('/tasks', v('2'))).json().items.length, 1);
    assert.equal((await c.get('/tasks')).json(), 'neutral');
    assert.equal((await c.get('/tasks', v('7'))).json(), 'neutral');
  });
});

describe('@Version on a handler', () => {
  class Mixed extends router('/items', { version: '1' }) {
    @Get() list() { return 'v1 list'; }
    @Get() @Version('2') listV2() { return 'v2 list'; }
    @Get('/{id}') @Version('1', '2') one() { return 'both'; }
  }

  it('overrides the router\'s version for that handler', async () => {
    const client = new TestClient(new BaseRouter({ sourceTypes: false, docs: false }).includeRouter(Mixed));
    assert.equal((await client.get('/v1/items')).json(), 'v1 list');
    assert.equal((await client.get('/v2/items')).json(), 'v2 list');
    assert.equal((await client.get('/v1/items/1')).json(), 'both');
    assert.equal((await client.get('/v2/items/1')).json(), 'both');
  });
});

describe('duplicate routes and bad versions', () => {
  it('refuses the same method, path and version twice, naming both handlers', () => {
    class Again extends router('/tasks', { version: '2' }) {
      @Get() again() { return []; }
    }
    for (const type of ['uri', 'header'] as const) {
      const base = new BaseRouter({ sourceTypes: false, versioning: { type } }).includeRouter(TasksV2);
      assert.throws(() => base.includeRouter(Again), (error: TrellisError) => {
        assert.equal(error.code, 'TRELLIS_ERR_DUPLICATE_ROUTE');
        assert.deepEqual([error.details.existing, error.details.handler], ['TasksV2.list', 'Again.again']);
        assert.equal(error.details.route, type === 'uri' ? 'GET /v2/tasks' : 'GET /tasks (version 2)');
        return true;
      });
    }
  });

  it('accepts one path in different versions, and a neutral route beside a versioned one', () => {
    class Neutral extends router('/tasks') {
      @Get() all() { return []; }
    }
    for (const type of ['uri', 'header'] as const) {
      assert.doesNotThrow(() => new BaseRouter({ sourceTypes: false, versioning: { type } }).includeRouter(TasksV1).includeRouter(TasksV2).includeRouter(Neutral));
    }
  });

  it('refuses malformed version names where the class is defined', () => {
    for (const bad of ['', '../1', 'v 1', '1;drop', 'x'.repeat(40), '-1']) {
      assert.throws(() => router('/x', { version: bad }), (error: TrellisError) => error.code === 'TRELLIS_ERR_VERSION_NAME' && error.details.where === "router('/x')", bad);
    }
    assert.throws(() => router('/x', { version: [] }), { code: 'TRELLIS_ERR_VERSION_NAME' });
    assert.throws(() => router('/x', { version: ['1', '1'] }), { code: 'TRELLIS_ERR_VERSION_NAME' });
    assert.throws(() => Version('2', 'no way'), { code: 'TRELLIS_ERR_VERSION_NAME' });
  });

  it('refuses bad versioning options', () => {
    const bad: Array<[object, string]> = [
      [{ type: 'query' }, 'type'],
      [{ header: 'x api' }, 'header'],
      [{ header: 'x-v\r\nset-cookie: a' }, 'header'],
      [{ prefix: '/v' }, 'prefix'],
      [{ defaultVersion: '1' }, 'defaultVersion'],
      [{ type: 'header', defaultVersion: '../' }, 'defaultVersion'],
    ];
    for (const [versioning, option] of bad) {
      assert.throws(() => new BaseRouter({ versioning: versioning as never }), (error: TrellisError) => error.code === 'TRELLIS_ERR_VERSIONING' && error.details.option === option, option);
    }
  });

  it('refuses a defaultVersion no route declares when setting up ends', () => {
    assert.throws(() => app({ versioning: { type: 'header', defaultVersion: '5' } }).handler, (error: TrellisError) => {
      assert.equal(error.code, 'TRELLIS_ERR_VERSIONING');
      assert.match(error.message, /"5" is not a version of the routes \(1, 2\)/);
      return true;
    });
  });
});
