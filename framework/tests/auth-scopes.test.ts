import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { IsString } from 'class-validator';
import { BaseRouter, Delete, Get, Post, router, Use } from '../index';
import { jwtAuth, Scopes } from '../auth';
import { TrellisError } from '../framework-error';
import { Body } from '../param';
import { TestClient } from '../testing';
import { bearer, refusal, SECRET, token } from './fixtures/auth-tokens';
import { silentLogger } from './fixtures/captured-log';

class NewTask {
  @IsString() title!: string;
}

const guard = jwtAuth({ secret: SECRET });

@Use(guard)
class TaskRouter extends router('/tasks') {
  @Get('') list() {
    return [];
  }

  @Post('') @Scopes('tasks:write') create(@Body() task: NewTask) {
    return [task, 201];
  }
}

@Use(guard)
@Scopes('admin')
class AdminRouter extends router('/admin') {
  @Get('/stats') stats() {
    return { tasks: 0 };
  }

  @Delete('/tasks') @Scopes('tasks:write') purge() {
    return undefined;
  }
}

const app = () => new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(TaskRouter).includeRouter(AdminRouter));
const insufficient = (scope: string) => ({
  status: 403,
  challenge: `Bearer error="insufficient_scope", error_description="The token lacks a scope this route needs", scope="${scope}"`,
  body: { error: 'The token lacks a scope this route needs' },
});

describe('@Scopes checked by jwtAuth', () => {
  it('401 beats 403 beats 422 on a POST with an invalid body', async () => {
    const client = app();
    const invalid = { json: { title: 42 } };
    assert.equal((await client.post('/tasks', invalid)).status, 401);
    const reader = await token(SECRET, { scope: 'tasks:read' });
    assert.deepEqual(refusal(await client.post('/tasks', { ...invalid, ...bearer(reader) })), insufficient('tasks:write'));
    const writer = await token(SECRET, { scope: 'tasks:read tasks:write' });
    assert.equal((await client.post('/tasks', { ...invalid, ...bearer(writer) })).status, 422);
    assert.equal((await client.post('/tasks', { json: { title: 'x' }, ...bearer(writer) })).status, 201);
  });

  it('a route without @Scopes takes any valid token', async () => {
    assert.equal((await app().get('/tasks', bearer(await token(SECRET)))).status, 200);
  });

  it("a router's scopes apply to each route, a handler's add to them; the challenge names all the route needs", async () => {
    const client = app();
    const admin = await token(SECRET, { scope: 'admin' });
    assert.equal((await client.get('/admin/stats', bearer(admin))).status, 200);
    assert.deepEqual(refusal(await client.delete('/admin/tasks', bearer(admin))), insufficient('admin tasks:write'));
    assert.deepEqual(refusal(await client.get('/admin/stats', bearer(await token(SECRET, { scope: 'tasks:write' })))), insufficient('admin'));
    assert.equal((await client.delete('/admin/tasks', bearer(await token(SECRET, { scope: 'tasks:write admin' })))).status, 204);
  });

  it('reads scp (a list, as Azure AD and Okta send) when there is no scope claim', async () => {
    const client = app();
    assert.equal((await client.post('/tasks', { json: { title: 'x' }, ...bearer(await token(SECRET, { scp: ['tasks:write'] })) })).status, 201);
    assert.equal((await client.post('/tasks', { json: { title: 'x' }, ...bearer(await token(SECRET, { scp: ['tasks:read'] })) })).status, 403);
    // A scope claim that is not text grants nothing; a scope is matched whole, never as a prefix.
    assert.equal((await client.post('/tasks', { json: { title: 'x' }, ...bearer(await token(SECRET, { scope: ['tasks:write'] })) })).status, 403);
    assert.equal((await client.post('/tasks', { json: { title: 'x' }, ...bearer(await token(SECRET, { scope: 'tasks:writer' })) })).status, 403);
  });

  it("the guard's own scopes apply to every route behind it, app-wide too", async () => {
    class Open extends router('/open') {
      @Get('') one() {
        return { ok: true };
      }

      @Post('') @Scopes('tasks:write') two() {
        return { ok: true };
      }
    }
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).addMiddleware(jwtAuth({ secret: SECRET, scopes: ['api'] })).includeRouter(Open));
    assert.deepEqual(refusal(await client.get('/open', bearer(await token(SECRET)))), insufficient('api'));
    assert.equal((await client.get('/open', bearer(await token(SECRET, { scope: 'api' })))).status, 200);
    assert.deepEqual(refusal(await client.post('/open', bearer(await token(SECRET, { scope: 'api' })))), insufficient('api tasks:write'));
    assert.equal((await client.post('/open', bearer(await token(SECRET, { scope: 'api tasks:write' })))).status, 200);
    assert.equal((await client.get('/nowhere', bearer(await token(SECRET, { scope: 'api' })))).status, 404);
  });

  it('a route with @Scopes and no scope-aware guard refuses to start, naming the route', async () => {
    class Unguarded extends router('/reports') {
      @Get('/{id}') @Scopes('reports:read') one() {
        return {};
      }
    }
    const client = new TestClient(new BaseRouter({ logger: silentLogger() }).includeRouter(Unguarded));
    await assert.rejects(client.start(), (error: unknown) => {
      const cause = error instanceof TrellisError && error.code === 'TRELLIS_ERR_SCOPES_UNGUARDED' ? error : (error as { cause?: unknown }).cause;
      assert.ok(cause instanceof TrellisError, String(error));
      assert.equal(cause.code, 'TRELLIS_ERR_SCOPES_UNGUARDED');
      assert.deepEqual(cause.details, { route: 'GET /reports/{id}', handler: 'Unguarded.one', scopes: 'reports:read' });
      return true;
    });
  });

  it('refuses a scope name a challenge could not carry, where the class is defined', () => {
    for (const bad of ['two words', 'quo"te', 'back\\slash', '', 'é']) {
      assert.throws(() => Scopes(bad), (error: TrellisError) => error.code === 'TRELLIS_ERR_SCOPE_NAME' && error.details.scope === JSON.stringify(bad));
    }
  });
});

describe('the OpenAPI document of scoped routes', () => {
  it("lists each operation's scopes on the bearer JWT scheme and documents a 403, in a valid OpenAPI 3.1 document", async () => {
    const document = new BaseRouter({ logger: silentLogger() }).includeRouter(TaskRouter).includeRouter(AdminRouter).openapi();
    assert.deepEqual(document.components?.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    assert.deepEqual(document.paths['/tasks'].get.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.paths['/tasks'].post.security, [{ bearerAuth: ['tasks:write'] }]);
    assert.deepEqual(document.paths['/admin/tasks'].delete.security, [{ bearerAuth: ['admin', 'tasks:write'] }]);
    assert.equal(document.paths['/tasks'].get.responses['403'], undefined);
    assert.ok(['201', '401', '403', '422'].every((status) => status in document.paths['/tasks'].post.responses));
    assert.match(document.paths['/tasks'].post.responses['403'].description, /lacks a scope/);
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('declares openIdConnect with discovery, and the scheme a guard is given (oauth2)', async () => {
    class Reports extends router('/reports') {
      @Get('') @Scopes('reports:read') list() {
        return [];
      }
    }
    const oidc = new BaseRouter().addMiddleware(jwtAuth({ issuer: 'https://login.example.com' })).includeRouter(Reports).openapi();
    assert.deepEqual(oidc.components?.securitySchemes, {
      openIdConnect: { type: 'openIdConnect', openIdConnectUrl: 'https://login.example.com/.well-known/openid-configuration' },
    });
    assert.deepEqual(oidc.paths['/reports'].get.security, [{ openIdConnect: ['reports:read'] }]);

    const flows = { clientCredentials: { tokenUrl: 'https://login.example.com/token', scopes: { 'reports:read': 'Read reports' } } };
    const oauth2 = new BaseRouter()
      .addMiddleware(jwtAuth({ secret: SECRET, security: { schemeName: 'oauth2', type: 'oauth2', flows } }))
      .includeRouter(Reports)
      .openapi();
    assert.deepEqual(oauth2.components?.securitySchemes, { oauth2: { type: 'oauth2', flows } });
    assert.deepEqual(oauth2.paths['/reports'].get.security, [{ oauth2: ['reports:read'] }]);
    for (const document of [oidc, oauth2]) await SwaggerParser.validate(structuredClone(document) as never);
  });
});
