import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TestClient } from '../../framework/testing';
import { ProjectError } from '../project-error';
import { discover } from '../discover';
import { bannerLines } from '../banner';
import { loadProject } from '../load';
import { cleanup, copyFixture, FIXTURES } from './support';
import { healthyWith, loadError } from './project-support';

after(cleanup);

describe('discovery', () => {
  it('finds the routers, services and middleware a project exports', () => {
    const found = discover(join(FIXTURES, 'healthy'));
    assert.deepEqual(found.failures, []);
    assert.deepEqual(found.routers.map((r) => [r.cls.name, r.file]), [
      ['AdminRouter', 'routers/admin.ts'],
      ['TaskRouter', 'routers/tasks.ts'],
    ]);
    assert.deepEqual(found.services.map((s) => [s.cls.name, s.file]), [['TaskService', 'services/task_service.ts']]);
    assert.deepEqual(found.middleware.map((m) => [m.name, m.file, m.main?.name]), [
      ['require_token', 'middleware/require_token.ts', 'RequireToken'],
      ['timing', 'middleware/timing.ts', 'Timing'],
    ]);
    assert.deepEqual(found.models.map((m) => m.cls.name), ['TaskIn']);
  });

  it('loads nested folders and .js files, skips tests and declarations, and mounts a base router only through its subclasses', () => {
    const dir = healthyWith({
      'routers/v2/base.ts': [
        "import { Get, router } from 'trellis';",
        "export class CrudRouter extends router('/v2/things') {",
        '  @Get() list() { return ["base"]; }',
        '}',
      ].join('\n'),
      'routers/v2/things.ts': "import { CrudRouter } from './base';\nexport class ThingRouter extends CrudRouter {}\n",
      'routers/plain.js': [
        "const { router, Get } = require('trellis');",
        "class PlainRouter extends router('/plain') { list() { return { plain: true }; } }",
        "Get()(PlainRouter.prototype, 'list', Object.getOwnPropertyDescriptor(PlainRouter.prototype, 'list'));",
        'module.exports = { PlainRouter };',
      ].join('\n'),
      'routers/tasks.test.ts': 'throw new Error("tests are not routers");\n',
      'routers/types.d.ts': 'export interface Nothing { x: number }\n',
    });
    const found = discover(dir);
    assert.deepEqual(found.failures, []);
    assert.deepEqual(found.routers.map((r) => r.cls.name), ['AdminRouter', 'PlainRouter', 'TaskRouter', 'ThingRouter']);
  });

  it('serves the assembled app: services, Config and router middleware injected, global middleware, static, templates, favicon, docs', async () => {
    const { app, discovery } = loadProject(join(FIXTURES, 'healthy'), { port: 1234 });
    assert.equal(discovery.routers.length, 2);
    assert.equal(app.title, 'Fixture API');
    assert.equal(app.version, '1.2.3');
    const client = new TestClient(app);

    const tasks = await client.get('/tasks');
    assert.equal(tasks.status, 200);
    assert.deepEqual(tasks.json(), [{ id: 1, title: 'First' }]);
    assert.match(String(tasks.headers['x-process-time']), /^\d+\.\d\d$/, 'the global middleware from config.yaml ran');
    const created = await client.post('/tasks', { json: { title: 'Second' } });
    assert.deepEqual([created.status, created.json()], [201, { id: 2, title: 'Second' }]);
    assert.equal((await client.post('/tasks', { json: { title: '' } })).status, 422, 'DTO rules registered by the project are enforced');

    assert.equal((await client.get('/admin/settings')).status, 401, 'router middleware with Config injected');
    const settings = await client.get('/admin/settings', { headers: { authorization: 'Bearer fixture-token' } });
    assert.deepEqual(settings.json(), { title: 'Fixture API', port: 1234 }, 'Config holds config.yaml with the --port override');

    const file = await client.get('/static/hello.txt');
    assert.equal(file.status, 200);
    assert.equal(file.text, 'hello from static\n');
    const icon = await client.get('/favicon.ico');
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['content-type'], 'image/x-icon');
    const docs = await client.get('/docs/openapi.json');
    assert.equal(docs.status, 200);
    assert.deepEqual(Object.keys(docs.json().paths).sort(), ['/admin/settings', '/admin/slow', '/tasks', '/tasks/{task_id}']);
  });

  it('turns the docs off when config.yaml says so', async () => {
    const dir = healthyWith({ 'config.yaml': 'docs: { enabled: false }\nmiddleware: [timing]\nadmin: { token: t }\n' });
    const client = new TestClient(loadProject(dir).app);
    assert.equal((await client.get('/docs/openapi.json')).status, 404);
    assert.equal((await client.get('/tasks')).status, 200);
  });

  it('takes the body limit from config.yaml, and refuses a limit that is not a positive number', async () => {
    const dir = healthyWith({ 'config.yaml': 'server: { body_limit: 64 }\nmiddleware: [timing]\nadmin: { token: t }\n' });
    const client = new TestClient(loadProject(dir).app);
    const res = await client.post('/tasks', { json: { title: 'x'.repeat(100) } });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json(), { error: 'Request body is larger than 64 bytes' });
    const bad = healthyWith({ 'config.yaml': 'server:\n  headers_timeout: -1\n' });
    assert.throws(() => loadProject(bad), (e: ProjectError) => /config\.yaml:2: server\.headers_timeout must be a positive whole number, got -1/.test(e.message));
  });

  it('takes the JSON limits (keys of an object, objects and arrays in all) from config.yaml', async () => {
    const dir = healthyWith({ 'config.yaml': 'server: { max_object_keys: 3, max_json_containers: 3 }\nmiddleware: [timing]\nadmin: { token: t }\n' });
    const client = new TestClient(loadProject(dir).app);
    assert.equal((await client.post('/tasks', { json: { title: 'x', a: 1, b: [[]] } })).status, 201);
    const keys = await client.post('/tasks', { json: { title: 'x', a: 1, b: 2, c: 3 } });
    assert.equal(keys.status, 413);
    assert.deepEqual(keys.json(), { error: 'A JSON object of the body has more than 3 keys' });
    const containers = await client.post('/tasks', { json: { title: 'x', a: [[[]]] } });
    assert.equal(containers.status, 413);
    assert.deepEqual(containers.json(), { error: 'The JSON body has more than 3 objects and arrays' });
  });

  it('gives the file and line of a syntax error, without a stack', () => {
    const dir = healthyWith({ 'routers/broken.ts': "import { router } from 'trellis';\n\nexport class Broken extends router('/b') {\n  x = ;\n}\n" });
    assert.equal(loadError(dir), 'routers/broken.ts:4: SyntaxError: Expression expected');
  });

  it('gives the line where a file throws while loading, in the file that threw', () => {
    const thrower = healthyWith({ 'routers/throws.ts': "export const a = 1;\n\nthrow new Error('no database');\n" });
    assert.equal(loadError(thrower), 'routers/throws.ts:3: no database');
    const deeper = healthyWith({
      'services/settings.ts': "export const settings = JSON.parse('{oops');\n",
      'routers/uses.ts': "import { settings } from '../services/settings';\nexport const used = settings;\n",
    });
    assert.equal(loadError(deeper), "services/settings.ts:1: SyntaxError: Expected property name or '}' in JSON at position 1");
    const missing = healthyWith({ 'routers/missing.ts': "import { thing } from './nowhere';\nexport const x = thing;\n" });
    assert.match(loadError(missing), /^routers\/missing\.ts:1: Cannot find module '\.\/nowhere'$/);
  });

  it("reports what the framework refuses at the handler's line", () => {
    const dir = healthyWith({
      'routers/clash.ts': [
        "import { Get, router } from 'trellis';",
        '',
        "export class ClashRouter extends router('/tasks') {",
        '  @Get()',
        '  again() {',
        '    return [];',
        '  }',
        '}',
      ].join('\n'),
    });
    assert.equal(
      loadError(dir),
      'routers/tasks.ts:17: Duplicate route GET /tasks: ClashRouter.again and TaskRouter.list declare the same method and path',
    );
  });

  it("reports a parameter constraint refused as the class is defined at its handler's line", () => {
    const dir = healthyWith({
      'routers/pages.ts': [
        "import { Get, router } from 'trellis';",
        "import { Int, Query } from 'trellis/param';",
        '',
        "export class PageRouter extends router('/pages') {",
        '  @Get()',
        "  list(@Query('page', { type: Int, default: 0, minimum: 1 }) page: number) {",
        '    return { page };',
        '  }',
        '}',
      ].join('\n'),
    });
    assert.equal(
      loadError(dir),
      'routers/pages.ts:6: TrellisError: PageRouter.list: query parameter page has an invalid default: 0: Input should be greater than or equal to 1',
    );
  });

  it('locates a refused handler and a missing import by the syntax tree, not by text that looks like them', () => {
    const refused = healthyWith({
      'routers/orders.ts': [
        "import { Get, router } from 'trellis';",
        "import { Path } from 'trellis/param';",
        '',
        '/** Replaces the class OrderRouter of v1, whose one() took no id. */',
        "export class OrderRouter extends router('/orders') {",
        "  @Get('/count')",
        '  count() {',
        '    const one = (n: number) => n;',
        '    return one(1);',
        '  }',
        '',
        "  @Get('/{order_id}')",
        "  one(@Path('ident') id: string) {",
        '    return { id };',
        '  }',
        '}',
      ].join('\n'),
    });
    assert.equal(loadError(refused), "routers/orders.ts:13: OrderRouter.one: @Path('ident') names no {ident} in the route path /orders/{order_id}");
    const missing = healthyWith({ 'routers/missing.ts': "// Was './nowhere' before the move.\nimport { thing } from './nowhere';\nexport const x = thing;\n" });
    assert.match(loadError(missing), /^routers\/missing\.ts:2: Cannot find module '\.\/nowhere'$/);
  });

  it('stops on a config.yaml error, and on a global middleware config.yaml names but middleware/ lacks', () => {
    const bad = healthyWith({ 'config.yaml': 'app:\n  title: Fixture\nserver:\n  port: eighty\n' });
    assert.equal(loadError(bad), 'config.yaml:4: server.port must be an integer from 0 to 65535, got "eighty"');
    const unknown = healthyWith({ 'config.yaml': 'middleware:\n  - timing\n  - timming\n' });
    assert.equal(
      loadError(unknown),
      'config.yaml:3: middleware timming: no middleware/timming.ts exporting a Middleware class (found: require_token, timing)',
    );
  });

  it('refuses a folder that is not a project', () => {
    const dir = copyFixture('healthy');
    const message = (path: string) => loadError(join(dir, path)).replace(`${dir}/`, '');
    assert.equal(message('routers'), 'routers is not a trellis project (no config.yaml, no routers/)');
    assert.equal(message('nowhere'), 'nowhere does not exist');
    assert.equal(message('config.yaml'), 'config.yaml is not a folder');
  });

  it('shows a project without config.yaml, static/ or templates/ as such in the banner', () => {
    const dir = copyFixture('duplicate');
    rmSync(join(dir, 'config.yaml'));
    rmSync(join(dir, 'routers', 'legacy.ts'));
    const { project, discovery } = loadProject(dir);
    assert.deepEqual(bannerLines(project, discovery, 'http://localhost:8000').slice(1), [
      `Running app ${dir} on http://localhost:8000`,
      '  Config:      none (defaults)',
      '  Routers:     1 discovered',
      `  Static:      ${dir}/static (not found)`,
      `  Templates:   ${dir}/templates (not found)`,
      '  Middleware:  0 loaded',
      `Run \`trellis doctor ${dir}\` for a more detailed analysis.`,
    ]);
  });

  it("names a build by its config.yaml title, since the folder it starts from (dist) names no app", () => {
    const { project, discovery } = loadProject(copyFixture('healthy'));
    const lines = bannerLines({ ...project, display: 'dist', built: true }, discovery, 'http://localhost:8000');
    assert.deepEqual(lines.slice(1, 3), ['Running app Fixture API on http://localhost:8000', '  Config:      dist/config.yaml']);
    assert.doesNotMatch(lines.join('\n'), /trellis doctor/);
  });
});
