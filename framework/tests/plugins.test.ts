import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BaseRouter, Config, Get, Injectable, JSONResponse, Middleware, router, type CallNext, type Request } from '../index';
import type { Plugin } from '../plugins';
import { ConfigSectionError } from '../config-section';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';
import requestCounterPlugin, { requestCounter } from './fixtures/plugins/request-counter';

const GUIDE = join(__dirname, '../../docs/guide/plugins.md');
const FIXTURE = join(__dirname, 'fixtures/plugins/request-counter.ts');

class Tasks extends router('/tasks') {
  @Get('/') list(): JSONResponse {
    return new JSONResponse(['write docs']);
  }
}

const plugin = (name: string, register: Plugin['register']): Plugin => ({ name, register });
const code = (expected: string, check: (error: TrellisError) => boolean = () => true) => (error: unknown) =>
  error instanceof TrellisError && error.code === expected && check(error);

describe('the guide\'s request-counter plug-in', () => {
  it('is the code docs/guide/plugins.md shows', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const block = /```ts file=plugins\/request-counter\.ts\n([\s\S]*?)```/.exec(guide);
    assert.ok(block, 'the guide has a ```ts file=plugins/request-counter.ts block');
    assert.equal(block[1], readFileSync(FIXTURE, 'utf8'));
  });

  it('reads its config section, counts every response, serves the counts, runs its hooks and describes its tag', async () => {
    const { logger, lines } = capturedLog();
    const app = new BaseRouter({ logger, sourceTypes: false })
      .provide(new Config({ request_counter: { path: '/internal/requests', tag: 'internal' } }))
      .register(requestCounter())
      .includeRouter(Tasks);
    const client = new TestClient(app);
    assert.equal((await client.get('/tasks')).status, 200);
    assert.equal((await client.get('/nothing')).status, 404);
    const res = await client.get('/internal/requests');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json().counts, { 200: 1, 404: 1 });
    assert.match(res.json().since, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(lines.filter((line) => line.msg === 'counting requests').map((line) => line.path), ['/internal/requests']);

    const document = app.openapi();
    assert.deepEqual(document.paths['/internal/requests'].get.tags, ['internal']);
    assert.deepEqual(document.tags?.filter((tag) => tag.name === 'internal'), [{ name: 'internal', description: 'What the app has answered' }]);
    assert.equal(app.routes.find((route) => route.path === '/internal/requests')?.builtIn, true);

    await client.close();
    const counted = lines.find((line) => line.msg === 'requests counted');
    assert.deepEqual(counted?.counts, { 200: 2, 404: 1 });
    assert.ok(lines.some((line) => line.hook === 'request-counter.onShutdown()' && line.msg === 'shutdown hook finished'));
  });

  it('takes its defaults when config.yaml has no section, and the module exports it by default', async () => {
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: false }).provide(new Config({})).register(requestCounterPlugin);
    assert.equal((await new TestClient(app).get('/stats/requests')).status, 200);
  });

  it('refuses a section value that does not fit, naming the setting, never the value', () => {
    const app = new BaseRouter({ logger: silentLogger() }).provide(new Config({ request_counter: { path: 'no slash secret' } }));
    assert.throws(
      () => app.register(requestCounter()),
      (error: unknown) => error instanceof ConfigSectionError && error.path === 'request_counter.path' && !error.message.includes('secret'),
    );
  });
});

describe('registering plug-ins', () => {
  it('refuses a second plug-in of one name, the built-in ones included', () => {
    const app = new BaseRouter({ logger: silentLogger() }).register(plugin('audit', () => {}));
    assert.throws(() => app.register(plugin('audit', () => {})), code('TRELLIS_ERR_PLUGIN_DUPLICATE', (e) => e.details.plugin === 'audit'));
    assert.throws(() => app.templates(join(__dirname, 'fixtures/templates')).templates(join(__dirname, 'fixtures/templates')), code('TRELLIS_ERR_PLUGIN_DUPLICATE'));
    assert.throws(() => new BaseRouter({ docs: {} }).register(plugin('docs', () => {})), code('TRELLIS_ERR_PLUGIN_DUPLICATE', (e) => e.details.plugin === 'docs'));
  });

  it('refuses what is not a plug-in', () => {
    for (const value of [undefined, {}, { name: '', register() {} }, { name: 'x' }, class Plug {}]) {
      assert.throws(() => new BaseRouter().register(value as unknown as Plugin), code('TRELLIS_ERR_NOT_A_PLUGIN'), String(value));
    }
  });

  it('names the plug-in whose register throws, with its error as the cause', () => {
    const failure = new Error('no database url\nsecond line');
    assert.throws(
      () => new BaseRouter().register(plugin('database', () => { throw failure; })),
      (error: unknown) => code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => e.details.plugin === 'database' && e.details.reason === 'no database url')(error) && (error as { cause?: unknown }).cause === failure,
    );
  });

  it('refuses an async register and a host used after register returned', async () => {
    assert.throws(() => new BaseRouter().register({ name: 'slow', register: async () => {} } as unknown as Plugin), code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => /promise/.test(String(e.details.reason))));
    let kept: Parameters<Plugin['register']>[0] | undefined;
    const app = new BaseRouter().register(plugin('keeper', (host) => void (kept = host)));
    assert.throws(() => kept!.route(Tasks), code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => e.details.plugin === 'keeper'));
    assert.equal(app.routes.some((route) => route.path === '/tasks'), false);
  });

  it('refuses a plug-in once the app started', async () => {
    const app = new BaseRouter({ logger: silentLogger() });
    await app.start();
    assert.throws(() => app.register(plugin('late', () => {})), code('TRELLIS_ERR_APP_STARTED', (e) => e.details.method === 'register'));
  });

  it('names both handlers when a plug-in route clashes with a user route, whichever comes first', () => {
    class Stats extends router('/tasks') {
      @Get('/') stats(): string[] {
        return [];
      }
    }
    const stats = plugin('stats', (host) => host.route(Stats));
    assert.throws(
      () => new BaseRouter().includeRouter(Tasks).register(stats),
      code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => e.details.plugin === 'stats' && /Tasks\.list/.test(String(e.details.reason)) && /Stats\.stats/.test(String(e.details.reason))),
    );
    assert.throws(
      () => new BaseRouter().register(stats).includeRouter(Tasks),
      code('TRELLIS_ERR_DUPLICATE_ROUTE', (e) => e.details.existing === 'Stats.stats' && e.details.handler === 'Tasks.list'),
    );
  });

  it('refuses two plug-ins setting one request context key, and beforeStart on a router class', () => {
    const engine = plugin('engine', (host) => host.requestContext({ uploadLimits: { fileSize: 1, files: 1, fields: 1, fieldSize: 1, fieldsSize: 1, memorySize: 1 } }));
    assert.throws(() => new BaseRouter({ uploads: { files: 2 } }).register(engine), code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => /uploadLimits.*uploads/.test(String(e.details.reason))));
    assert.throws(() => new BaseRouter().register(plugin('early', (host) => host.route(Tasks, { beforeStart: true }))), code('TRELLIS_ERR_PLUGIN_REGISTER', (e) => /instance/.test(String(e.details.reason))));
  });
});

describe('a plug-in in the app\'s life', () => {
  it('starts before the services and stops after them; a failing startup hook names the plug-in and the hooks that ran are undone', async () => {
    const calls: string[] = [];
    @Injectable()
    class Repo {
      onStartup() { calls.push('Repo.onStartup'); }
      onShutdown() { calls.push('Repo.onShutdown'); }
    }
    @Injectable()
    class Uses extends router('/r') {
      constructor(readonly repo: Repo) { super(); }
      @Get('/') one(): JSONResponse { return new JSONResponse([]); }
    }
    const pool = plugin('pool', (host) => {
      host.onStartup(() => void calls.push('pool.open'));
      host.onShutdown(() => void calls.push('pool.close'));
    });
    const ok = new BaseRouter({ logger: silentLogger() }).register(pool).provide(Repo).includeRouter(Uses);
    await ok.start();
    await ok.stop();
    assert.deepEqual(calls, ['pool.open', 'Repo.onStartup', 'Repo.onShutdown', 'pool.close']);

    calls.length = 0;
    const broken = plugin('cache', (host) => {
      host.onStartup(() => { throw new Error('cache unreachable'); });
      host.onShutdown(() => void calls.push('cache.close'));
    });
    const failing = new BaseRouter({ logger: silentLogger() }).register(pool).register(broken).provide(Repo).includeRouter(Uses);
    await assert.rejects(failing.start(), code('TRELLIS_ERR_STARTUP_FAILED', (e) => e.details.step === 'cache.onStartup()' && e.details.reason === 'cache unreachable'));
    assert.deepEqual(calls, ['pool.open', 'pool.close']);
  });

  it('runs its middleware outside the app\'s own, on every request, unmatched ones included', async () => {
    const order: string[] = [];
    class Mark extends Middleware {
      constructor(readonly label: string) { super(); }
      async dispatch(request: Request, next: CallNext) {
        order.push(`${this.label} in`);
        const response = await next(request);
        order.push(`${this.label} out ${response.status}`);
        return response;
      }
    }
    const app = new BaseRouter({ logger: silentLogger() }).addMiddleware(new Mark('app')).register(plugin('outer', (host) => host.use(new Mark('plugin'))));
    await new TestClient(app).get('/missing');
    assert.deepEqual(order, ['plugin in', 'app in', 'app out 404', 'plugin out 404']);
  });

  it('takes Express middleware through host.use, as addMiddleware does', async () => {
    const express = plugin('express-header', (host) =>
      host.use((req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) => {
        res.setHeader('x-from-express', 'yes');
        next();
      }),
    );
    const res = await new TestClient(new BaseRouter({ logger: silentLogger(), sourceTypes: false }).includeRouter(Tasks).register(express)).get('/tasks');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-from-express'], 'yes');
  });

  it('reports its health check under its name, verifies before the hooks, and answers beforeStart routes before the start', async () => {
    let up = true;
    const app = new BaseRouter({ logger: silentLogger(), health: { checkInterval: 0 } }).register(plugin('database', (host) => host.healthCheck(() => up)));
    const client = new TestClient(app);
    await client.start();
    assert.deepEqual((await client.get('/readyz')).json().checks, { database: 'up' });
    up = false;
    const down = await client.get('/readyz');
    assert.equal(down.status, 503);
    assert.deepEqual(down.json().checks, { database: 'down' });

    const refusal = new TrellisError('TRELLIS_ERR_SCHEMA_NAME_CLASH', 'Item');
    const hooked: string[] = [];
    const verifying = new BaseRouter({ logger: silentLogger() }).register(plugin('strict', (host) => {
      host.verify(() => { throw refusal; });
      host.onStartup(() => void hooked.push('strict'));
    }));
    await assert.rejects(verifying.start(), (error: unknown) => error === refusal);
    assert.deepEqual(hooked, []);

    let release!: () => void;
    const slow = plugin('slow', (host) => host.onStartup(() => new Promise<void>((resolve) => (release = resolve))));
    const starting = new TestClient(new BaseRouter({ logger: silentLogger(), health: true }).register(slow));
    assert.equal((await starting.get('/healthz')).status, 200, 'the probe answers while a startup hook runs');
    assert.equal((await starting.get('/readyz')).status, 503);
    release();
  });

  it('sees every request through an observer, protocol refusals included, and contributes to each new document', async () => {
    const seen: string[] = [];
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: false }).includeRouter(Tasks).register(plugin('watch', (host) => {
      host.observe((request) => void seen.push(`${request.method} ${request.path}`));
      host.openapi((document) => void (document.servers = [{ url: 'https://api.example.com' }]));
    }));
    const client = new TestClient(app);
    await client.get('/tasks');
    await client.get('/nope');
    assert.deepEqual(seen, ['GET /tasks', 'GET /nope']);
    assert.deepEqual(app.openapi().servers, [{ url: 'https://api.example.com' }]);
  });
});
