import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { parse } from 'yaml';
import { BaseRouter, Get, Post, router } from '../index';
import { TrellisError } from '../framework-error';
import { Body } from '../param';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class TaskIn {
  @IsString() title!: string;
}

class TaskRouter extends router('/tasks') {
  /** List tasks. */
  @Get() list() { return [{ title: 'Write docs' }]; }
  @Post() create(@Body() body: TaskIn) { return body; }
}

const app = (options: ConstructorParameters<typeof BaseRouter>[0] = {}) =>
  new BaseRouter({ title: 'Tasks <API>', version: '1.0.0', description: 'Tasks & more', ...options }).includeRouter(new TaskRouter());

describe('docs pages', () => {
  it('serve a landing page at /docs and /docs/ linking every format', async () => {
    const client = new TestClient(app());
    for (const path of ['/docs', '/docs/']) {
      const res = await client.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      for (const href of ['/docs/swagger', '/docs/redoc', '/docs/openapi.json', '/docs/openapi.yaml']) {
        assert.ok(res.text.includes(`<a href="${href}">`), `${path} links ${href}`);
      }
      assert.ok(res.text.includes('<h1>Tasks &lt;API&gt; <small>1.0.0</small></h1>'), 'the title is escaped');
      assert.ok(res.text.includes('<p>Tasks &amp; more</p>'));
    }
  });

  it('serve openapi.json: the app document, without the docs routes (which app.routes lists)', async () => {
    const instance = app();
    const res = await new TestClient(instance).get('/docs/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json(), instance.openapi());
    assert.deepEqual(Object.keys(res.json().paths), ['/tasks']);
    assert.deepEqual(instance.routes.map((r) => `${r.method} ${r.path} ${r.label}`), [
      'GET /tasks TaskRouter.list',
      'POST /tasks TaskRouter.create',
      'GET /docs DocsRouter.landing',
      'GET /docs/swagger DocsRouter.swagger',
      'GET /docs/redoc DocsRouter.redoc',
      'GET /docs/swagger-init.js DocsRouter.swaggerInit',
      'GET /docs/openapi.json DocsRouter.json',
      'GET /docs/openapi.yaml DocsRouter.yaml',
      'GET /docs/assets/{name} DocsRouter.asset',
      'GET /docs/v{n}/{file} DocsRouter.versioned',
    ]);
  });

  it('serve openapi.yaml: the same document in YAML', async () => {
    const client = new TestClient(app());
    const yaml = await client.get('/docs/openapi.yaml');
    assert.equal(yaml.status, 200);
    assert.equal(yaml.headers['content-type'], 'application/yaml; charset=utf-8');
    assert.ok(yaml.text.startsWith('openapi: 3.1.0\n'));
    assert.deepEqual(parse(yaml.text), (await client.get('/docs/openapi.json')).json());
  });

  it('serve Swagger UI from the app assets, no CDN', async () => {
    const client = new TestClient(app());
    const page = await client.get('/docs/swagger');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-security-policy'] as string, /default-src 'self'/);
    // No other site may frame the page (clickjacking "Try it out"); a page of the same origin may.
    assert.match(page.headers['content-security-policy'] as string, /(?:^|; )frame-ancestors 'self'(?:;|$)/);
    assert.ok(page.text.includes('<title>Tasks &lt;API&gt; - Swagger UI</title>'));
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(sources, [
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/swagger-init.js',
    ]);
    const init = await client.get('/docs/swagger-init.js');
    assert.equal(init.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.ok(init.text.includes('"url":"/docs/openapi.json"'));
    const bundle = await client.get('/docs/assets/swagger-ui-bundle.js');
    assert.equal(bundle.status, 200);
    assert.equal(bundle.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.ok(bundle.text.includes('SwaggerUIBundle'));
    const css = await client.get('/docs/assets/swagger-ui.css');
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  });

  it('serve ReDoc from the app assets, without its CDN logo', async () => {
    const client = new TestClient(app());
    const page = await client.get('/docs/redoc');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('<redoc spec-url="/docs/openapi.json"></redoc>'));
    assert.ok(page.text.includes('<script src="/docs/assets/redoc.standalone.js"></script>'));
    const bundle = await client.get('/docs/assets/redoc.standalone.js');
    assert.equal(bundle.status, 200);
    assert.ok(bundle.body.length > 500_000);
    assert.equal(bundle.text.includes('https://cdn.redoc.ly'), false);
  });

  it('let browsers cache assets (ETag, 304)', async () => {
    const client = new TestClient(app());
    const first = await client.get('/docs/assets/swagger-ui.css');
    assert.equal(first.headers['cache-control'], 'public, max-age=86400');
    const etag = first.headers.etag as string;
    assert.ok(etag);
    const again = await client.get('/docs/assets/swagger-ui.css', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const document = await client.get('/docs/openapi.json');
    const unchanged = await client.get('/docs/openapi.json', { headers: { 'if-none-match': document.headers.etag as string } });
    assert.equal(unchanged.status, 304);
  });

  it('answer 404 JSON for unknown docs paths and assets, never package files', async () => {
    const client = new TestClient(app());
    for (const path of [
      '/docs/nope',
      '/docs/assets/index.html',
      '/docs/assets/swagger-initializer.js',
      '/docs/assets/..%2f..%2fpackage.json',
      '/docs/assets/%2e%2e/package.json',
      '/docs/assets/constructor',
    ]) {
      const res = await client.get(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.json(), { error: 'Not Found' }, path);
    }
  });

  it('move to a custom path', async () => {
    const client = new TestClient(app({ docs: { path: '/api-docs/' } }));
    const landing = await client.get('/api-docs');
    assert.equal(landing.status, 200);
    assert.ok(landing.text.includes('<a href="/api-docs/openapi.yaml">'));
    assert.ok((await client.get('/api-docs/swagger-init.js')).text.includes('"url":"/api-docs/openapi.json"'));
    assert.ok((await client.get('/api-docs/redoc')).text.includes('<redoc spec-url="/api-docs/openapi.json">'));
    assert.equal((await client.get('/api-docs/openapi.json')).json().openapi, '3.1.0');
    assert.equal((await client.get('/docs')).status, 404);

    const atRoot = new TestClient(app({ docs: { path: '/' } }));
    assert.ok((await atRoot.get('/')).text.includes('<a href="/swagger">'));
    assert.ok((await atRoot.get('/swagger')).text.includes('<script src="/assets/swagger-ui-bundle.js">'));
    assert.equal((await atRoot.get('/tasks')).json()[0].title, 'Write docs');
  });

  it('turn off with docs: false (app.openapi() still works)', async () => {
    const instance = app({ docs: false });
    const client = new TestClient(instance);
    for (const path of ['/docs', '/docs/swagger', '/docs/openapi.json', '/docs/assets/swagger-ui.css']) {
      assert.equal((await client.get(path)).status, 404, path);
    }
    assert.equal((await client.get('/tasks')).status, 200);
    assert.deepEqual(Object.keys(instance.openapi().paths), ['/tasks']);
  });

  it('refuse a docs path Express would read as a pattern', () => {
    for (const path of ['/docs/:id', '/docs/*', '/{docs}', '/do cs']) {
      assert.throws(() => new BaseRouter({ docs: { path } }), (e: TrellisError) => e.code === 'TRELLIS_ERR_DOCS_PATH', path);
    }
  });

  it('describe the routes the app serves: a router cannot be added once it serves', async () => {
    const instance = app();
    const client = new TestClient(instance);
    assert.deepEqual(Object.keys((await client.get('/docs/openapi.json')).json().paths), ['/tasks']);
    class Extra extends router('/extra') {
      @Get() extra() { return {}; }
    }
    assert.throws(() => instance.includeRouter(new Extra()), { code: 'TRELLIS_ERR_APP_STARTED' });
    assert.deepEqual(Object.keys((await client.get('/docs/openapi.json')).json().paths), ['/tasks']);
    assert.equal((await client.get('/extra')).status, 404);
  });

  it('are refused at startup when two DTO classes share a name, so the document never fails at request time', async () => {
    const makeDto = () => {
      class Item {
        @IsString() name!: string;
      }
      return Item;
    };
    const [A, B] = [makeDto(), makeDto()];
    class Nested {
      @ValidateNested() @Type(() => B) item!: InstanceType<typeof B>;
    }
    class Items extends router('/items') {
      @Post('/a') a(@Body({ type: A }) body: unknown[]) { return body; }
      @Post('/b') b(@Body() body: Nested) { return body; }
    }
    const clash = (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_SCHEMA_NAME_CLASH' && error.details.name === 'Item';
    await assert.rejects(new BaseRouter({ logger: silentLogger() }).includeRouter(new Items()).start(), clash);
    // Without docs, nothing is documented: the app starts.
    const undocumented = new TestClient(new BaseRouter({ logger: silentLogger(), docs: false }).includeRouter(new Items()));
    assert.equal((await undocumented.post('/items/a', { json: [{ name: 'x' }] })).status, 200);
  });

  it('are refused at startup for a DTO class named like a schema of the framework (HTTPError)', async () => {
    class HTTPError {
      @IsString() message!: string;
    }
    class Errors extends router('/errors') {
      @Post('/') add(@Body() body: HTTPError) { return body; }
    }
    await assert.rejects(new BaseRouter({ logger: silentLogger() }).includeRouter(Errors).start(), { code: 'TRELLIS_ERR_SCHEMA_NAME_CLASH' });
  });
});
