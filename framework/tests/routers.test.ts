import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Delete, Get, Head, Injectable, Options, Patch, Post, Put, router } from '../index';
import { TrellisError } from '../framework-error';
import { Path } from '../param';
import { TestClient } from '../testing';

describe('router classes', () => {
  it('prefixes every endpoint with the base path; a constructor may call super()', async () => {
    class TaskRouter extends router('/tasks') {
      readonly names: string[];
      constructor() {
        super();
        this.names = ['a', 'b'];
      }
      @Get() list() { return this.names; }
      @Get('/count') count() { return { count: this.names.length }; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new TaskRouter()));
    assert.deepEqual((await client.get('/tasks')).json(), ['a', 'b']);
    assert.deepEqual((await client.get('/tasks/count')).json(), { count: 2 });
    assert.equal((await client.get('/count')).status, 404);
  });

  it('serves every method decorator, with and without a sub-path, sync and async', async () => {
    class Things extends router('/things') {
      @Get() get() { return { m: 'GET' }; }
      @Post() async post() { return { m: 'POST' }; }
      @Put('/{id}') put() { return { m: 'PUT' }; }
      @Patch('/{id}') async patch() { await new Promise((r) => setTimeout(r, 1)); return { m: 'PATCH' }; }
      @Delete('/{id}') del() { return { m: 'DELETE' }; }
      @Options('/{id}') opts() { return { m: 'OPTIONS' }; }
      @Head('/{id}') head() { return { m: 'HEAD' }; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Things()));
    assert.deepEqual((await client.get('/things')).json(), { m: 'GET' });
    assert.deepEqual((await client.post('/things')).json(), { m: 'POST' });
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const res = await client.request(method, '/things/1');
      assert.equal(res.status, 200, method);
      assert.deepEqual(res.json(), { m: method });
    }
    const head = await client.head('/things/1');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  it("treats '/' as the base path", async () => {
    class Items extends router('/items') {
      @Post('/') create() { return [{ created: true }, 201]; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Items()));
    const res = await client.post('/items');
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { created: true });
  });

  it('passes base-path parameters to handlers', async () => {
    class Posts extends router('/users/{user_id}/posts') {
      @Get() list(@Path('user_id') userId: number) { return { user_id: userId, posts: [] }; }
      @Get('/{post_id}') one(@Path('user_id') userId: number, @Path('post_id') postId: number) {
        return { userId, postId };
      }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Posts()));
    assert.deepEqual((await client.get('/users/7/posts')).json(), { user_id: 7, posts: [] });
    assert.deepEqual((await client.get('/users/7/posts/9')).json(), { userId: 7, postId: 9 });
  });

  it('rejects something that is not a router', () => {
    class NotARouter {}
    assert.throws(() => new BaseRouter().includeRouter(NotARouter as never), (e: TrellisError) => e.code === 'TRELLIS_ERR_NOT_A_ROUTER');
  });
});

describe('constructor injection', () => {
  class TaskStore {
    readonly tasks = ['write tests'];
  }
  @Injectable()
  class TaskService {
    constructor(readonly store: TaskStore) {}
    all() { return this.store.tasks; }
  }
  @Injectable()
  class TaskRouter extends router('/tasks') {
    constructor(private readonly service: TaskService) { super(); }
    @Get() list() { return this.service.all(); }
  }

  it('builds a router class, resolving constructor parameters by type, one service instance per app', async () => {
    @Injectable()
    class OtherRouter extends router('/other') {
      constructor(private readonly service: TaskService) { super(); }
      @Get() same() { return { same: this.service === services[0] }; }
    }
    const services: TaskService[] = [];
    @Injectable()
    class FirstRouter extends router('/first') {
      constructor(service: TaskService) { super(); services.push(service); }
      @Get() none() { return {}; }
    }
    const app = new BaseRouter().provide(TaskStore, TaskService).includeRouter(FirstRouter).includeRouter(TaskRouter).includeRouter(OtherRouter);
    const client = new TestClient(app);
    assert.deepEqual((await client.get('/tasks')).json(), ['write tests']);
    assert.deepEqual((await client.get('/other')).json(), { same: true });
  });

  it('uses a provided instance', async () => {
    const store = new TaskStore();
    store.tasks.push('ship it');
    const app = new BaseRouter().provide(store, TaskService).includeRouter(TaskRouter);
    assert.deepEqual((await new TestClient(app).get('/tasks')).json(), ['write tests', 'ship it']);
  });

  it('names the missing service', () => {
    assert.throws(
      () => new BaseRouter().provide(TaskStore).includeRouter(TaskRouter),
      (e: TrellisError) => e.code === 'TRELLIS_ERR_UNKNOWN_DEPENDENCY' && /TaskRouter needs TaskService/.test(e.message),
    );
  });

  it('asks for @Injectable() when TypeScript recorded no parameter types', () => {
    class Undecorated extends router('/u') {
      constructor(readonly service: TaskService) { super(); }
    }
    assert.throws(
      () => new BaseRouter().provide(TaskService).includeRouter(Undecorated),
      (e: TrellisError) => e.code === 'TRELLIS_ERR_NO_PARAMTYPES' && /@Injectable\(\)/.test(e.message),
    );
  });
});

describe('composition and isolation', () => {
  it('serves nested routers whose base path extends another', async () => {
    class Users extends router('/users') {
      @Get('/{user_id}') one(@Path('user_id') id: number) { return { user: id }; }
    }
    class UserPosts extends router('/users/{user_id}/posts') {
      @Get() list(@Path('user_id') id: number) { return { posts: id }; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Users()).includeRouter(new UserPosts()));
    assert.deepEqual((await client.get('/users/3')).json(), { user: 3 });
    assert.deepEqual((await client.get('/users/3/posts')).json(), { posts: 3 });
  });

  it('inherits endpoints from a parent router class', async () => {
    class Base extends router('/base') {
      @Get('/ping') ping() { return 'pong'; }
    }
    class Child extends Base {
      @Get('/extra') extra() { return 'extra'; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Child()));
    assert.equal((await client.get('/base/ping')).json(), 'pong');
    assert.equal((await client.get('/base/extra')).json(), 'extra');
  });

  it('keeps two apps in one process apart: routes, middleware and services', async () => {
    class Counter { n = 0; }
    @Injectable()
    class A extends router('/a') {
      constructor(private readonly counter: Counter) { super(); }
      @Get() hit() { return ++this.counter.n; }
    }
    class B extends router('/b') {
      @Get() hit() { return 'b'; }
    }
    const one = new BaseRouter().provide(Counter).includeRouter(A);
    const two = new BaseRouter().provide(Counter).includeRouter(A).includeRouter(B);
    one.addMiddleware(async (req: unknown, res: { setHeader(n: string, v: string): void }, next: () => void) => {
      res.setHeader('x-app', 'one');
      next();
    });
    const c1 = new TestClient(one);
    const c2 = new TestClient(two);
    assert.equal((await c1.get('/a')).json(), 1);
    assert.equal((await c1.get('/a')).json(), 2);
    assert.equal((await c2.get('/a')).json(), 1, 'each app has its own Counter');
    assert.equal((await c1.get('/b')).status, 404, 'app one never included B');
    assert.equal((await c2.get('/b')).status, 200);
    assert.equal((await c1.get('/a')).headers['x-app'], 'one');
    assert.equal((await c2.get('/a')).headers['x-app'], undefined);
  });
});
