import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AggregatorRegistry, Counter, Registry } from 'prom-client';
import { BaseRouter, closeGracefully, Get, HTTPException, Injectable, Post, router, StreamingResponse } from '../index';
import { TrellisError } from '../framework-error';
import type { AppOptions } from '../app';
import { Int, Path } from '../param';
import { TestClient } from '../testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class TaskRouter extends router('/tasks') {
  @Get('/{task_id}') one(@Path('task_id', { type: Int }) id: number) {
    if (id > 100) throw new HTTPException(404, 'Task not found');
    return { id };
  }

  @Post('/') create() {
    return [{ id: 2 }, 201];
  }

  @Get('/slow/stream') stream() {
    return new StreamingResponse(
      (async function* () {
        yield 'a';
        await sleep(60);
        yield 'b';
      })(),
      { headers: { 'content-type': 'text/plain' } },
    );
  }

  @Get('/slow/answer') async slow() {
    await sleep(300);
    return { late: true };
  }
}

const app = (options: AppOptions = { metrics: true }) => new BaseRouter({ docs: false, ...options }).includeRouter(TaskRouter);

/** The value of the sample `name{labels}` in a text exposition; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=[a-z_]+=")/) : [];
    if (wanted.length === present.length && wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return undefined;
}

const scrape = async (client: TestClient, path = '/metrics') => (await client.get(path)).text;

describe('metrics', () => {
  it('count requests and time them by route pattern, method and status, never by raw path', async () => {
    const client = new TestClient(app());
    for (const id of [1, 2, 3]) assert.equal((await client.get(`/tasks/${id}`)).status, 200);
    assert.equal((await client.get('/tasks/101')).status, 404);
    assert.equal((await client.post('/tasks')).status, 201);
    const res = await client.get('/metrics');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const text = res.text;
    const one = { method: 'GET', route: '/tasks/{task_id}', status_code: '200' };
    assert.equal(sample(text, 'http_requests_total', one), 3);
    assert.equal(sample(text, 'http_requests_total', { ...one, status_code: '404' }), 1, 'a 404 of a matched route keeps its pattern');
    assert.equal(sample(text, 'http_requests_total', { method: 'POST', route: '/tasks', status_code: '201' }), 1);
    assert.doesNotMatch(text, /\/tasks\/1\b|\/tasks\/101/);

    assert.equal(sample(text, 'http_request_duration_seconds_count', one), 3);
    assert.equal(sample(text, 'http_request_duration_seconds_bucket', { ...one, le: '+Inf' }), 3);
    assert.ok(sample(text, 'http_request_duration_seconds_sum', one)! > 0);
    const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map((le) =>
      sample(text, 'http_request_duration_seconds_bucket', { ...one, le: String(le) }),
    );
    assert.ok(buckets.every((count, i) => count !== undefined && (i === 0 || count >= buckets[i - 1]!)), 'cumulative buckets');
    assert.equal(buckets.at(-1), 3);
  });

  it('put every unmatched request under one route label, whatever its path', async () => {
    const client = new TestClient(app());
    for (let i = 0; i < 20; i++) assert.equal((await client.get(`/scan/${Math.random().toString(36).slice(2)}`)).status, 404);
    assert.equal((await client.request('DELETE', '/tasks/1')).status, 405);
    const text = await scrape(client);
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '__unmatched__', status_code: '404' }), 20);
    assert.equal(sample(text, 'http_requests_total', { method: 'DELETE', route: '__unmatched__', status_code: '405' }), 1);
    assert.doesNotMatch(text, /\/scan\//);
    assert.equal(text.match(/^http_requests_total\{/gm)!.length, 2);
  });

  it('label HEAD as HEAD, and every method no route can declare as one _OTHER label', async () => {
    const client = new TestClient(app());
    assert.equal((await client.head('/tasks/1')).status, 200);
    for (const method of ['PROPFIND', 'PURGE', 'MKCOL']) assert.equal((await client.request(method, '/tasks/1')).status, 405);
    const text = await scrape(client);
    assert.equal(sample(text, 'http_requests_total', { method: 'HEAD', route: '/tasks/{task_id}', status_code: '200' }), 1);
    assert.equal(sample(text, 'http_requests_total', { method: '_OTHER', route: '__unmatched__', status_code: '405' }), 3);
    assert.doesNotMatch(text, /PROPFIND|PURGE|MKCOL/);
  });

  it('answer HEAD /metrics with the headers only', async () => {
    const res = await new TestClient(app()).head('/metrics');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(res.body.length, 0);
  });

  it('are off by default: no /metrics route, no registry, prom-client not loaded', async () => {
    for (const options of [{}, { metrics: false }]) {
      const instance = app(options);
      assert.equal((await new TestClient(instance).get('/metrics')).status, 404);
      assert.equal(instance.metrics, undefined);
      assert.ok(!instance.routes.some((route) => route.path === '/metrics'));
    }
    const script = `require('./register.js'); const { BaseRouter } = require('./framework');
      new BaseRouter().handler; console.log(Object.keys(require.cache).some((file) => file.includes('prom-client')));`;
    const loaded = execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' });
    assert.equal(loaded.trim(), 'false');
  });

  it('move to options.path', async () => {
    const client = new TestClient(app({ metrics: { path: 'internal/metrics/' } }));
    assert.equal((await client.get('/metrics')).status, 404);
    const res = await client.get('/internal/metrics');
    assert.equal(res.status, 200);
    assert.match(res.text, /^# HELP http_requests_total /m);
  });

  it('stay out of the OpenAPI document, though app.routes lists the route', () => {
    const instance = app({ metrics: true, docs: {} });
    assert.deepEqual(Object.keys(instance.openapi().paths).sort(), ['/tasks', '/tasks/slow/answer', '/tasks/slow/stream', '/tasks/{task_id}']);
    const listed = instance.routes.filter((route) => route.path === '/metrics');
    assert.deepEqual(listed.map((route) => `${route.method} ${route.label}`), ['GET MetricsRouter.metrics']);
    assert.equal(instance.routes.at(-1)!.label, 'DocsRouter.versioned', 'the docs pages stay last');
  });

  it('are per app: two apps in one process share no counter', async () => {
    const [first, second] = [app(), app()];
    assert.notEqual(first.metrics, second.metrics);
    const [a, b] = [new TestClient(first), new TestClient(second)];
    await a.get('/tasks/1');
    await a.get('/tasks/2');
    await b.get('/tasks/1');
    const labels = { method: 'GET', route: '/tasks/{task_id}', status_code: '200' };
    assert.equal(sample(await scrape(a), 'http_requests_total', labels), 2);
    assert.equal(sample(await scrape(b), 'http_requests_total', labels), 1);
  });

  it('time a streamed response until its last byte is written', async () => {
    const client = new TestClient(app({ metrics: { buckets: [0.05, 1] } }));
    assert.equal((await client.get('/tasks/slow/stream')).text, 'ab');
    const text = await scrape(client);
    const labels = { method: 'GET', route: '/tasks/slow/stream', status_code: '200' };
    assert.equal(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '0.05' }), 0);
    assert.equal(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '1' }), 1);
    assert.ok(sample(text, 'http_request_duration_seconds_sum', labels)! >= 0.05);
  });

  it('count a request whose client left before its answer as status 499', async () => {
    const instance = app();
    const server = await instance.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = server.address() as { port: number };
      await new Promise<void>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/tasks/slow/answer' });
        req.on('error', () => resolve());
        req.end();
        setTimeout(() => req.destroy(), 50);
      });
      await sleep(400);
      const text = await scrape(new TestClient(instance.handler));
      assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/tasks/slow/answer', status_code: '499' }), 1);
    } finally {
      await closeGracefully(server);
    }
  });

  it('export the process: CPU, memory, event-loop lag, heap, GC; not the per-socket and per-heap-space series', async () => {
    const text = await scrape(new TestClient(app()));
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_open_fds',
      'process_start_time_seconds',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_external_memory_bytes',
      'nodejs_gc_duration_seconds',
      'nodejs_version_info',
    ]) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.doesNotMatch(text, /nodejs_active_handles|nodejs_active_requests|nodejs_active_resources|nodejs_heap_space_size/);
    const bare = await scrape(new TestClient(app({ metrics: { defaultMetrics: false } })));
    assert.deepEqual(bare.match(/^# TYPE \S+/gm), ['# TYPE http_requests_total', '# TYPE http_request_duration_seconds']);
  });

  it('take buckets of your own', async () => {
    const client = new TestClient(app({ metrics: { buckets: [0.1, 0.5], defaultMetrics: false } }));
    await client.get('/tasks/1');
    const text = await scrape(client);
    assert.deepEqual(text.match(/(?<=le=")[^"]+/g), ['0.1', '0.5', '+Inf']);
  });

  it('serve metrics of your own registered on app.metrics, and give the registry to services by type', async () => {
    @Injectable()
    class Signups {
      readonly total: Counter;
      constructor(registry: Registry) {
        this.total = new Counter({ name: 'signups_total', help: 'Accounts created.', registers: [registry] });
      }
    }
    @Injectable()
    class SignupRouter extends router('/signups') {
      constructor(private readonly signups: Signups) {
        super();
      }
      @Post() create() {
        this.signups.total.inc();
        return [{}, 201];
      }
    }
    const instance = new BaseRouter({ metrics: true }).provide(Signups).includeRouter(SignupRouter);
    const jobs = new Counter({ name: 'jobs_total', help: 'Jobs run.', registers: [instance.metrics!] });
    jobs.inc(3);
    const client = new TestClient(instance);
    await client.post('/signups');
    const text = await scrape(client);
    assert.equal(sample(text, 'signups_total'), 1);
    assert.equal(sample(text, 'jobs_total'), 3);
    assert.equal(sample(text, 'http_requests_total', { method: 'POST', route: '/signups', status_code: '201' }), 1);
  });

  it('reset with the registry, and aggregate across processes as prom-client metrics do', async () => {
    const instance = app();
    const client = new TestClient(instance);
    await client.get('/tasks/1');
    const json = await instance.metrics!.getMetricsAsJSON();
    const merged = await AggregatorRegistry.aggregate([json, json]).metrics();
    const labels = { method: 'GET', route: '/tasks/{task_id}', status_code: '200' };
    assert.equal(sample(merged, 'http_requests_total', labels), 2);
    assert.equal(sample(merged, 'http_request_duration_seconds_count', labels), 2);
    assert.equal(sample(merged, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }), 2);

    instance.metrics!.resetMetrics();
    assert.equal(sample(await instance.metrics!.metrics(), 'http_requests_total', labels), undefined);
  });

  it('refuse a path that is not plain segments, and buckets that are not increasing seconds', () => {
    for (const path of ['/', '', '/{name}', '/a b', '/metrics/*', '/a:b']) {
      assert.throws(() => new BaseRouter({ metrics: { path } }), (e: TrellisError) => e.code === 'TRELLIS_ERR_METRICS_PATH', path);
    }
    for (const buckets of [[], [0.5, 0.1], [0, 1], [-1], [1, Infinity], ['1' as unknown as number]]) {
      assert.throws(
        () => new BaseRouter({ metrics: { buckets } }),
        (e: TrellisError) => e.code === 'TRELLIS_ERR_METRICS_BUCKETS' && e.details.buckets === JSON.stringify(buckets),
        JSON.stringify(buckets),
      );
    }
  });
});
