import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { BaseRouter, Get, Post, router } from '../index';
import { Body, Path } from '../param';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

class TaskIn {
  @IsString() title!: string;
}

/** Tasks, first edition. */
class TaskRouterV1 extends router('/tasks', { version: '1' }) {
  /** List tasks. */
  @Get() list() { return []; }
  @Post() create(@Body() body: TaskIn) { return body; }
}

/** Tasks, second edition. */
class TaskRouterV2 extends router('/tasks', { version: '2' }) {
  @Get() list() { return { items: [] }; }
  @Get('/{task_id}') one(@Path('task_id') id: number) { return { id }; }
}

class StatusRouter extends router('/status') {
  @Get() status() { return { ok: true }; }
}

const build = (versioning?: ConstructorParameters<typeof BaseRouter>[0] extends infer O ? O extends { versioning?: infer V } ? V : never : never) =>
  new BaseRouter({ title: 'Tasks', sourceTypes: false, versioning }).includeRouter(TaskRouterV1).includeRouter(TaskRouterV2).includeRouter(StatusRouter);

const operations = (document: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));

describe('one OpenAPI document per version (URI versioning)', () => {
  it('documents a version\'s routes and the version-neutral ones', () => {
    const app = build();
    assert.deepEqual(operations(app.openapi({ version: '1' })), ['GET /v1/tasks', 'POST /v1/tasks', 'GET /status']);
    assert.deepEqual(operations(app.openapi({ version: '2' })), ['GET /v2/tasks', 'GET /v2/tasks/{task_id}', 'GET /status']);
  });

  it('documents every route by default (each version has its own paths)', () => {
    assert.deepEqual(operations(build().openapi()), ['GET /v1/tasks', 'POST /v1/tasks', 'GET /v2/tasks', 'GET /v2/tasks/{task_id}', 'GET /status']);
  });

  it('refuses a version no route declares', () => {
    assert.throws(() => build().openapi({ version: '3' }), (error: TrellisError) => error.code === 'TRELLIS_ERR_VERSIONING' && /versions: 1, 2/.test(error.message));
    assert.throws(() => new BaseRouter().openapi({ version: '1' }), (error: TrellisError) => error.code === 'TRELLIS_ERR_VERSIONING' && /versions: none/.test(error.message));
  });

  it('serves each version\'s document under the docs, and 404 for others', async () => {
    const app = build();
    const client = new TestClient(app);
    const v1 = await client.get('/docs/v1/openapi.json');
    assert.equal(v1.status, 200);
    assert.deepEqual(v1.json(), app.openapi({ version: '1' }));
    const yaml = await client.get('/docs/v2/openapi.yaml');
    assert.equal(yaml.headers['content-type'], 'application/yaml; charset=utf-8');
    assert.match(yaml.text, /\/v2\/tasks\/\{task_id\}:/);
    assert.deepEqual((await client.get('/docs/openapi.json')).json(), app.openapi());
    for (const path of ['/docs/v3/openapi.json', '/docs/1/openapi.json', '/docs/v1/other.json', '/docs/v1/..%2Fopenapi.json', '/docs/vv1/redoc', `/docs/v${'1'.repeat(3000)}/redoc`]) {
      const res = await client.get(path);
      assert.deepEqual([res.status, res.json()], [404, { error: 'Not Found' }], path.slice(0, 40));
    }
  });
});

describe('one OpenAPI document per version (header versioning)', () => {
  it('gives each versioned operation the version header, required, with the version as its one value', () => {
    const document = build({ type: 'header' }).openapi({ version: '2' });
    assert.deepEqual(operations(document), ['GET /tasks', 'GET /tasks/{task_id}', 'GET /status']);
    const header = document.paths['/tasks'].get.parameters?.[0];
    assert.deepEqual(header, { name: 'x-api-version', in: 'header', required: true, description: 'The API version', schema: { type: 'string', enum: ['2'] } });
    assert.equal(document.paths['/tasks/{task_id}'].get.parameters?.[0].name, 'x-api-version');
    assert.equal(document.paths['/tasks/{task_id}'].get.parameters?.[1].name, 'task_id');
    assert.equal(document.paths['/status'].get.parameters, undefined, 'a version-neutral route takes no version');
  });

  it('documents the default version\'s header as optional, and makes it the default document', () => {
    const app = build({ type: 'header', header: 'Accept-Version', defaultVersion: '1' });
    const v1 = app.openapi({ version: '1' }).paths['/tasks'].post.parameters?.[0];
    assert.deepEqual([v1?.name, v1?.required, v1?.schema], ['accept-version', false, { type: 'string', enum: ['1'] }]);
    assert.equal(app.openapi({ version: '2' }).paths['/tasks'].get.parameters?.[0].required, true);
    assert.deepEqual(operations(app.openapi()), ['GET /tasks', 'POST /tasks', 'GET /status']);
  });

  it('makes the latest version the default document when there is no default version', () => {
    assert.deepEqual(operations(build({ type: 'header' }).openapi()), ['GET /tasks', 'GET /tasks/{task_id}', 'GET /status']);
  });

  it('keeps each version\'s document apart (cached separately, the header added once)', () => {
    const app = build({ type: 'header' });
    app.openapi({ version: '2' });
    assert.equal(app.openapi({ version: '2' }).paths['/tasks'].get.parameters?.length, 1);
    assert.equal((app.openapi({ version: '1' }).paths['/tasks'].get.parameters?.[0].schema as { enum: string[] }).enum[0], '1');
  });
});

describe('docs pages with versions', () => {
  it('Swagger UI switches between the versions\' documents (urls and urls.primaryName)', async () => {
    const client = new TestClient(build());
    const page = await client.get('/docs/swagger');
    assert.ok(page.text.includes('<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>'));
    const init = (await client.get('/docs/swagger-init.js')).text;
    assert.ok(init.includes('"urls":[{"url":"/docs/v1/openapi.json","name":"v1"},{"url":"/docs/v2/openapi.json","name":"v2"}]'), init);
    assert.ok(init.includes('"urls.primaryName":"v2"'));
    assert.ok(init.includes("layout: 'StandaloneLayout'"));
    const preset = await client.get('/docs/assets/swagger-ui-standalone-preset.js');
    assert.deepEqual([preset.status, preset.headers['content-type']], [200, 'text/javascript; charset=utf-8']);
  });

  it('ReDoc and the landing page link every version', async () => {
    const client = new TestClient(build());
    const redoc = (await client.get('/docs/redoc')).text;
    assert.ok(redoc.includes('<redoc spec-url="/docs/openapi.json"></redoc>'));
    assert.ok(redoc.includes('<a href="/docs/v1/redoc">v1</a> <a href="/docs/v2/redoc">v2</a>'));
    const v1 = await client.get('/docs/v1/redoc');
    assert.equal(v1.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(v1.headers['content-security-policy']);
    assert.ok(v1.text.includes('<redoc spec-url="/docs/v1/openapi.json"></redoc>'));
    assert.ok(v1.text.includes('<strong>v1</strong> <a href="/docs/v2/redoc">v2</a>'));
    const landing = (await client.get('/docs')).text;
    for (const href of ['/docs/v1/redoc', '/docs/v1/openapi.json', '/docs/v2/openapi.yaml']) assert.ok(landing.includes(`<a href="${href}">`), href);
  });

  it('stay as they were for an app without versions', async () => {
    const client = new TestClient(new BaseRouter({ sourceTypes: false }).includeRouter(StatusRouter));
    assert.ok(!(await client.get('/docs/swagger')).text.includes('standalone'));
    assert.ok((await client.get('/docs/swagger-init.js')).text.includes('"url":"/docs/openapi.json"'));
    assert.ok(!(await client.get('/docs/redoc')).text.includes('<nav'));
    assert.ok(!(await client.get('/docs')).text.includes('API versions'));
    assert.equal((await client.get('/docs/v1/openapi.json')).status, 404);
  });
});
