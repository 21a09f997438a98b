import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Delete, Get, Head, Post, router } from '../index';
import { TrellisError } from '../framework-error';
import { Path } from '../param';
import { TestClient } from '../testing';

describe('route specificity', () => {
  // Declared and included in the least helpful order on purpose.
  class ById extends router('/api/users') {
    @Get('/{user_id}') one(@Path('user_id') id: string) { return { route: 'by-id', id }; }
    @Get() list() { return { route: 'list' }; }
  }
  class Me extends router('/api/users') {
    @Get('/me') me() { return { route: 'me' }; }
  }

  it('matches literal before parametric before shorter, whatever the order', async () => {
    for (const app of [new BaseRouter().includeRouter(new ById()).includeRouter(new Me()), new BaseRouter().includeRouter(new Me()).includeRouter(new ById())]) {
      const client = new TestClient(app);
      assert.deepEqual((await client.get('/api/users/me')).json(), { route: 'me' });
      assert.deepEqual((await client.get('/api/users/42')).json(), { route: 'by-id', id: '42' });
      assert.deepEqual((await client.get('/api/users')).json(), { route: 'list' });
      assert.deepEqual((await client.get('/api/users/')).json(), { route: 'list' }, 'a trailing slash matches too');
    }
  });
});

describe('duplicate routes', () => {
  it('fail at startup naming both handlers, also when only parameter names differ', () => {
    class A extends router('/tasks') {
      @Get('/{id}') one() { return 1; }
    }
    class B extends router('/tasks') {
      @Get('/{task_id}') other() { return 2; }
    }
    assert.throws(
      () => new BaseRouter().includeRouter(new A()).includeRouter(new B()),
      (e: TrellisError) => e.code === 'TRELLIS_ERR_DUPLICATE_ROUTE' && e.message.includes('A.one') && e.message.includes('B.other'),
    );
  });

  it('allow the same path with different methods', () => {
    class C extends router('/c') {
      @Get() read() { return 1; }
      @Post() write() { return 2; }
    }
    assert.doesNotThrow(() => new BaseRouter().includeRouter(new C()));
  });
});

describe('unmatched requests, HEAD and OPTIONS', () => {
  let getCalls = 0;
  class Tasks extends router('/tasks') {
    @Get() list() { getCalls++; return [{ id: 1 }]; }
    @Post() create() { return [{}, 201]; }
    @Get('/{id}') one(@Path('id') id: number) { return { id }; }
    @Delete('/{id}') remove() {}
    @Head('/probe') probe() { return [{ body: 'never sent' }, 202]; }
  }
  const client = new TestClient(new BaseRouter().includeRouter(new Tasks()));

  it('answers an unknown path with 404 {"error": "Not Found"}', async () => {
    const res = await client.get('/nothing/here');
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json(), { error: 'Not Found' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await client.put('/tasks');
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS, POST');
    assert.deepEqual(res.json(), { error: 'Method Not Allowed' });
    assert.equal((await client.post('/tasks/1')).headers.allow, 'DELETE, GET, HEAD, OPTIONS');
  });

  it('answers HEAD on GET routes with the headers only', async () => {
    const before = getCalls;
    const get = await client.get('/tasks');
    const head = await client.head('/tasks');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(getCalls, before + 2);
  });

  it('never sends the body of an explicit HEAD handler', async () => {
    const res = await client.head('/tasks/probe');
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
  });

  it('answers OPTIONS without a handler with 204 and Allow', async () => {
    const res = await client.options('/tasks/7');
    assert.equal(res.status, 204);
    assert.equal(res.headers.allow, 'DELETE, GET, HEAD, OPTIONS');
    assert.equal(res.text, '');
    assert.equal((await client.options('/unknown')).status, 404);
  });
});
