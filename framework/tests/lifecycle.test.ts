import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { BaseRouter, closeGracefully, Get, Inject, Injectable, InjectionToken, Middleware, router, type CallNext, type Request } from '../index';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';
import { startServer } from './fixtures/listening';

/** Classes that write their hook calls to `calls`: a pool, a repository using it, a router and a middleware using both. */
function recordingApp(calls: string[], options: { failIn?: string } = {}) {
  const hook = async (name: string) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (options.failIn === name) throw new Error(`${name} refused`);
    calls.push(name);
  };
  @Injectable()
  class Pool {
    onStartup() { return hook('Pool.onStartup'); }
    onShutdown() { return hook('Pool.onShutdown'); }
  }
  @Injectable()
  class Repo {
    constructor(readonly pool: Pool) {}
    onStartup() { return hook('Repo.onStartup'); }
    onShutdown() { return hook('Repo.onShutdown'); }
  }
  @Injectable()
  class Audit extends Middleware {
    constructor(readonly repo: Repo) { super(); }
    onStartup() { return hook('Audit.onStartup'); }
    dispatch(request: Request, next: CallNext) { return next(request); }
  }
  @Injectable()
  class NoteRouter extends router('/notes') {
    constructor(readonly repo: Repo) { super(); }
    onStartup() { return hook('NoteRouter.onStartup'); }
    onShutdown() { return hook('NoteRouter.onShutdown'); }
    @Get() list() { calls.push('GET /notes'); return []; }
  }
  // A service nobody injects still starts when it has hooks (a job runner, a cache warmer).
  @Injectable()
  class Warmer {
    onStartup() { return hook('Warmer.onStartup'); }
  }
  const { logger, lines } = capturedLog();
  const app = new BaseRouter({ logger, docs: false }).provide(Pool, Repo, Warmer).includeRouter(NoteRouter).addMiddleware(Audit);
  return { app, lines };
}

describe('lifecycle hooks', () => {
  it('runs startup hooks once, dependencies first, before the first request, and shutdown hooks in reverse, each logged', async () => {
    const calls: string[] = [];
    const { app, lines } = recordingApp(calls);
    assert.equal(app.state, 'setting-up');
    await Promise.all([app.start(), app.start()]);
    assert.equal(app.state, 'ready');
    assert.deepEqual(calls, ['Pool.onStartup', 'Repo.onStartup', 'Warmer.onStartup', 'NoteRouter.onStartup', 'Audit.onStartup']);
    assert.equal((await new TestClient(app).get('/notes')).status, 200);
    calls.length = 0;
    assert.equal(await app.stop(), true);
    assert.equal(app.state, 'stopped');
    assert.deepEqual(calls, ['NoteRouter.onShutdown', 'Repo.onShutdown', 'Pool.onShutdown']);
    const logged = lines.filter((line) => line.hook).map((line) => `${line.hook} ${line.msg}`);
    assert.deepEqual(logged.slice(-3), [
      'NoteRouter.onShutdown() shutdown hook finished',
      'Repo.onShutdown() shutdown hook finished',
      'Pool.onShutdown() shutdown hook finished',
    ]);
  });

  it('stops the start at a failing hook: one error naming it, the hooks that ran shut down, no port opened', async () => {
    const calls: string[] = [];
    const { app } = recordingApp(calls, { failIn: 'Repo.onStartup' });
    await assert.rejects(app.listen({ host: '127.0.0.1', port: 0 }), (error: TrellisError) => {
      assert.equal(error.code, 'TRELLIS_ERR_STARTUP_FAILED');
      assert.equal(error.message, 'Repo.onStartup() failed: Repo.onStartup refused');
      assert.deepEqual(error.details, { step: 'Repo.onStartup()', reason: 'Repo.onStartup refused' });
      assert.equal((error.cause as Error).message, 'Repo.onStartup refused');
      return true;
    });
    assert.deepEqual(calls, ['Pool.onStartup', 'Pool.onShutdown']);
    assert.equal(app.state, 'stopped');
  });

  it('TestClient: the first request starts the app (concurrent ones wait for it), close() runs the shutdown hooks', async () => {
    const calls: string[] = [];
    const { app } = recordingApp(calls);
    const client = new TestClient(app);
    const [a, b] = await Promise.all([client.get('/notes'), client.get('/notes')]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.deepEqual(calls.slice(-2), ['GET /notes', 'GET /notes']);
    assert.equal(calls.filter((call) => call === 'Pool.onStartup').length, 1);
    await client.close();
    assert.deepEqual(calls.slice(-3), ['NoteRouter.onShutdown', 'Repo.onShutdown', 'Pool.onShutdown']);
  });

  it('TestClient.start() rejects with what stopped the start; requests then answer 503', async () => {
    const { app } = recordingApp([], { failIn: 'Pool.onStartup' });
    const client = new TestClient(app);
    await assert.rejects(client.start(), /Pool\.onStartup\(\) failed: Pool\.onStartup refused/);
    const res = await client.get('/notes');
    assert.deepEqual([res.status, res.json()], [503, { error: 'Service Unavailable' }]);
  });

  it('closeGracefully: requests in flight finish before the shutdown hooks run', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    @Injectable()
    class Db {
      async onShutdown() { calls.push('Db.onShutdown'); }
    }
    @Injectable()
    class SlowRouter extends router('/slow') {
      constructor(readonly db: Db) { super(); }
      @Get() async slow() { await held; calls.push('request finished'); return { ok: true }; }
    }
    const app = new BaseRouter({ logger: silentLogger() }).provide(Db).includeRouter(SlowRouter);
    const { server, port } = await startServer(app);
    const answer = new Promise<number>((resolve) => httpRequest({ port, host: '127.0.0.1', path: '/slow' }, (res) => { res.resume(); resolve(res.statusCode!); }).end());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closeGracefully(server, 5_000);
    assert.equal(app.state, 'draining');
    setTimeout(release, 50);
    assert.equal(await answer, 200);
    assert.equal(await closed, true);
    assert.deepEqual(calls, ['request finished', 'Db.onShutdown']);
    assert.equal(app.state, 'stopped');
  });

  it('logs a shutdown hook that throws and runs the next; gives up on one still running at the deadline', async () => {
    const calls: string[] = [];
    @Injectable()
    class First {
      onShutdown() { calls.push('First'); }
    }
    @Injectable()
    class Hangs {
      constructor(readonly first: First) {}
      onShutdown() { calls.push('Hangs'); return new Promise(() => {}); }
    }
    @Injectable()
    class Throws {
      constructor(readonly hangs: Hangs) {}
      onShutdown() { calls.push('Throws'); throw new Error('already closed'); }
    }
    const { logger, lines } = capturedLog();
    const app = new BaseRouter({ logger }).provide(First, Hangs, Throws);
    await app.start();
    assert.equal(await app.stop({ timeoutMs: 100 }), false);
    assert.deepEqual(calls, ['Throws', 'Hangs']);
    const logged = lines.filter((line) => line.hook).map((line) => [line.hook, line.msg, line.err?.message]);
    assert.deepEqual(logged, [
      ['Throws.onShutdown()', 'shutdown hook failed', 'already closed'],
      ['Hangs.onShutdown()', 'shutdown hook still running when the grace period ended', undefined],
      ['First.onShutdown()', 'shutdown hook skipped: the grace period is over', undefined],
    ]);
  });
});

describe('injection you can trust', () => {
  interface Clock {
    now(): number;
  }
  const CLOCK = new InjectionToken<Clock>('Clock');

  it('refuses a parameter typed with an interface instead of injecting whatever was provided (it was given Config)', () => {
    @Injectable()
    class TimeRouter extends router('/time') {
      constructor(readonly clock: Clock) { super(); }
      @Get() now() { return { injected: (this.clock as object).constructor.name }; }
    }
    class Config {}
    assert.throws(() => new BaseRouter().provide(new Config()).includeRouter(TimeRouter), (error: TrellisError) => {
      assert.equal(error.code, 'TRELLIS_ERR_UNINJECTABLE_PARAMETER');
      assert.deepEqual(error.details, { consumer: 'TimeRouter', parameter: 1, name: 'clock', reason: 'is typed with an interface or object type (TypeScript records Object for it)' });
      assert.match(error.message, /^TimeRouter constructor parameter 1 \(clock\) is typed with an interface .*: give it a class type, or name what it receives with @Inject\(TOKEN\) and app\.provide\(\{ provide: TOKEN, useValue \| useFactory \| useClass \}\)$/);
      return true;
    });
  });

  it('refuses primitives and names a service nested behind the router, and a class never provided', () => {
    @Injectable()
    class Limits {
      constructor(readonly max: number) {}
    }
    @Injectable()
    class LimitRouter extends router('/l') {
      constructor(readonly limits: Limits) { super(); }
    }
    assert.throws(() => new BaseRouter().provide(Limits).includeRouter(LimitRouter), {
      code: 'TRELLIS_ERR_UNINJECTABLE_PARAMETER',
      message: /^Limits constructor parameter 1 \(max\) is typed number, a primitive,/,
    });
    assert.throws(() => new BaseRouter().includeRouter(LimitRouter), {
      code: 'TRELLIS_ERR_UNKNOWN_DEPENDENCY',
      message: 'LimitRouter needs Limits (constructor parameter 1, limits), which is not provided: call app.provide(Limits)',
    });
  });

  it('@Inject(TOKEN) with useValue, useClass and string and symbol tokens', async () => {
    const NAME = Symbol('name');
    class Greeter {
      greet() { return 'hello'; }
    }
    class LoudGreeter extends Greeter {
      greet() { return 'HELLO'; }
    }
    @Injectable()
    class InfoRouter extends router('/info') {
      constructor(@Inject(CLOCK) readonly clock: Clock, @Inject('LIMIT') readonly limit: number, @Inject(NAME) readonly name: string, readonly greeter: Greeter) { super(); }
      @Get() info() { return { now: this.clock.now(), limit: this.limit, name: this.name, greeting: this.greeter.greet() }; }
    }
    const app = new BaseRouter().provide(
      { provide: CLOCK, useValue: { now: () => 42 } },
      { provide: 'LIMIT', useValue: 10 },
      { provide: NAME, useValue: 'notes' },
      { provide: Greeter, useClass: LoudGreeter },
    );
    app.includeRouter(InfoRouter);
    assert.deepEqual((await new TestClient(app).get('/info')).json(), { now: 42, limit: 10, name: 'notes', greeting: 'HELLO' });
  });

  it('runs async factories in the startup phase, with their inject tokens, before anything that needs them is built', async () => {
    const calls: string[] = [];
    class Settings {
      readonly url = 'postgres://db';
    }
    const POOL = new InjectionToken<{ url: string }>('Pool');
    @Injectable()
    class PoolRouter extends router('/pool') {
      constructor(@Inject(POOL) readonly pool: { url: string }) { super(); calls.push('router built'); }
      @Get() pool_() { return this.pool; }
    }
    const app = new BaseRouter()
      .provide(Settings, {
        provide: POOL,
        inject: [Settings],
        useFactory: async (settings: Settings) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          calls.push('factory');
          return { url: settings.url };
        },
      })
      .includeRouter(PoolRouter);
    assert.deepEqual(calls, []);
    await app.start();
    assert.deepEqual(calls, ['factory', 'router built']);
    assert.deepEqual((await new TestClient(app).get('/pool')).json(), { url: 'postgres://db' });
  });

  it('names an @Inject token nothing provides, a factory that throws, a bad provider and a cycle', async () => {
    @Injectable()
    class NeedsClock extends router('/c') {
      constructor(@Inject(CLOCK) readonly clock: Clock) { super(); }
    }
    assert.throws(() => new BaseRouter().includeRouter(NeedsClock), {
      code: 'TRELLIS_ERR_UNKNOWN_TOKEN',
      message: 'NeedsClock asks for Clock (constructor parameter 1, clock), which is not provided: call app.provide({ provide: Clock, useValue | useFactory | useClass })',
    });
    const failing = new BaseRouter({ logger: silentLogger() })
      .provide({ provide: CLOCK, useFactory: async () => { throw new Error('ntp unreachable'); } })
      .includeRouter(NeedsClock);
    await assert.rejects(failing.start(), { code: 'TRELLIS_ERR_STARTUP_FAILED', message: 'factory of Clock failed: ntp unreachable' });
    assert.throws(() => new BaseRouter().provide({ provide: CLOCK, useValue: 1, useFactory: () => 2 } as never), {
      code: 'TRELLIS_ERR_INVALID_PROVIDER',
      message: 'Invalid provider for Clock: give exactly one of useValue, useClass and useFactory (got useValue, useFactory)',
    });
    @Injectable()
    class A {
      constructor(@Inject('B') readonly b: unknown) {}
    }
    @Injectable()
    class CycleRouter extends router('/cycle') {
      constructor(readonly a: A) { super(); }
    }
    assert.throws(() => new BaseRouter().provide(A, { provide: 'B', useFactory: (a: A) => a, inject: [A] }).includeRouter(CycleRouter), {
      code: 'TRELLIS_ERR_CIRCULAR_DEPENDENCY',
      message: "Circular dependency: A -> factory of 'B' -> A",
    });
  });
});
