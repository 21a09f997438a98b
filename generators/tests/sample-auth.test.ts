import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, Config } from '../../framework/index';
import { signToken } from '../../framework/auth';
import { testDatabase } from '../../framework/database';
import { createLogger } from '../../framework/logger';
import { isRouterClass } from '../../framework/router';
import { TestClient } from '../../framework/testing';
import { createProject, resolveExamples } from '../index';
import { linkInstall } from '../test-support/linked-install';
import { tempDir } from '../test-support/tree';

// The `create --auth jwt` sample as its user meets it, in memory and on a database: reads are open, each write
// (POST, PUT, DELETE of /tasks) answers 401 without a valid token, 403 with a token that lacks tasks:write, and
// does its work with one; the challenges say why, and the OpenAPI document shows the scheme and the scope.

const SECRET = 'the-secret-config-yaml-reads-from-JWT_SECRET';
const CHALLENGE = 'Bearer realm="tasks"';
const INSUFFICIENT =
  'Bearer realm="tasks", error="insufficient_scope", error_description="The token lacks a scope this route needs", scope="tasks:write"';

/** The rendered sample in `dir`, put together as `trellis run` would, `auth.secret` as config.yaml reads it. */
function sample(dir: string, secret: unknown, db: boolean): BaseRouter {
  const load = (folder: string) => readdirSync(join(dir, folder)).filter((f) => f.endsWith('.ts')).map((f) => require(join(dir, folder, f)));
  const app = new BaseRouter({ title: 'Demo API', logger: createLogger({ level: 'silent' }) });
  app.provide(new Config({ app: { title: 'Demo API' }, auth: { secret } }));
  if (db) app.register(testDatabase({ migrations: join(dir, 'migrations') }));
  for (const module of load('services')) app.provide(...Object.values(module).filter((v): v is new () => object => typeof v === 'function' && /^class\b/.test(String(v))));
  for (const module of load('routers')) for (const value of Object.values(module)) if (isRouterClass(value)) app.includeRouter(value as never);
  return app;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

for (const db of [false, true]) {
  describe(`the --auth jwt sample${db ? ' on a database' : ''}`, { timeout: 300_000 }, () => {
    const cwd = tempDir();
    const dir = join(cwd.path, 'demo');
    let client: TestClient;
    let writer: Record<string, string>;
    let reader: Record<string, string>;

    before(async () => {
      await createProject({ cwd: cwd.path, name: 'demo', title: 'Demo API', description: 'A demo.', port: 8000, examples: resolveExamples([]), db, auth: 'jwt' });
      if (db) linkInstall(dir, ['kysely']);
      client = new TestClient(sample(dir, SECRET, db));
      writer = bearer(await signToken({ secret: SECRET, scopes: ['tasks:write'], subject: 'ada' }));
      reader = bearer(await signToken({ secret: SECRET, scopes: ['tasks:read'], subject: 'bob' }));
    });
    after(async () => {
      await client?.close();
      cwd.remove();
    });

    it('shows in its README the challenges it sends', () => {
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      assert.ok(readme.includes(`# WWW-Authenticate: ${CHALLENGE}\n`), CHALLENGE);
      assert.ok(readme.includes(`# WWW-Authenticate: ${INSUFFICIENT}\n`), INSUFFICIENT);
    });

    it('lists and reads tasks without a token', async () => {
      assert.equal((await client.get('/tasks')).status, 200);
      assert.equal((await client.get('/tasks/1')).status, 200);
    });

    const writes: Array<[method: 'post' | 'put' | 'delete', path: string, json?: object]> = [
      ['post', '/tasks', { title: 'Ship it' }],
      ['put', '/tasks/1', { title: 'Read it twice', completed: true }],
      ['delete', '/tasks/2'],
    ];
    for (const [method, path, json] of writes) {
      const name = `${method.toUpperCase()} ${path}`;
      it(`${name}: 401 without a token, with the bare challenge`, async () => {
        const res = await client[method](path, { json });
        assert.equal(res.status, 401);
        assert.equal(res.headers['www-authenticate'], CHALLENGE);
        assert.equal(typeof res.json().error, 'string');
      });

      it(`${name}: 401 invalid_token for a token signed with another secret, or not a token`, async () => {
        const forged = await signToken({ secret: `${SECRET}-but-not-this-one`, scopes: ['tasks:write'] });
        for (const token of [forged, 'not-a-jwt']) {
          const res = await client[method](path, { json, headers: bearer(token) });
          assert.equal(res.status, 401);
          assert.match(String(res.headers['www-authenticate']), /^Bearer realm="tasks", error="invalid_token", error_description="[^"]+"$/);
        }
      });

      it(`${name}: 403 insufficient_scope for a token without tasks:write`, async () => {
        const res = await client[method](path, { json, headers: reader });
        assert.equal(res.status, 403);
        assert.equal(res.headers['www-authenticate'], INSUFFICIENT);
      });
    }

    it('does the writes for a token with tasks:write: 201, 200, 200', async () => {
      const created = await client.post('/tasks', { json: { title: 'Ship it' }, headers: writer });
      assert.equal(created.status, 201);
      assert.deepEqual(created.json(), { id: 3, title: 'Ship it', description: '', completed: false });
      const replaced = await client.put('/tasks/1', { json: { title: 'Read it twice', completed: true }, headers: writer });
      assert.equal(replaced.status, 200);
      assert.deepEqual(replaced.json(), { id: 1, title: 'Read it twice', description: '', completed: true });
      const deleted = await client.delete('/tasks/2', { headers: writer });
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.json(), { message: 'Task 2 deleted' });
      const ids = (await client.get('/tasks')).json().map((task: { id: number }) => task.id);
      assert.deepEqual(ids, [1, 3]);
    });

    it('documents the writes with the bearer JWT scheme, the scope tasks:write, a 401 and a 403; the reads as open', async () => {
      const document = (await client.get('/docs/openapi.json')).json();
      assert.deepEqual(document.components.securitySchemes.bearerJwt, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
      const item = document.paths['/tasks/{task_id}'];
      for (const operation of [document.paths['/tasks'].post, item.put, item.delete]) {
        assert.deepEqual(operation.security, [{ bearerJwt: ['tasks:write'] }]);
        assert.ok(operation.responses['401'], 'the missing or invalid token is documented');
        assert.equal(operation.responses['403']?.description, 'Forbidden: the token lacks a scope this route needs');
      }
      for (const operation of [document.paths['/tasks'].get, item.get]) assert.equal(operation.security, undefined);
    });
  });
}

describe('the --auth jwt sample without a usable JWT_SECRET', () => {
  const cwd = tempDir();
  const dir = join(cwd.path, 'demo');
  before(() => createProject({ cwd: cwd.path, name: 'demo', title: 'Demo API', description: 'A demo.', port: 8000, examples: resolveExamples([]), auth: 'jwt' }));
  after(() => cwd.remove());

  for (const [label, secret] of [['empty', ''], ['too short', 'short']] as const) {
    it(`does not start with a secret that is ${label}, naming auth.secret`, async () => {
      const client = new TestClient(sample(dir, secret, false));
      await assert.rejects(client.start(), (error: Error) => {
        assert.match(error.message, /^Config section auth does not fit AuthSettings: auth\.secret must be longer than or equal to 32 characters$/);
        return true;
      });
      assert.equal((await client.get('/tasks')).status, 503, 'an app that did not start serves nothing');
    });
  }
});
