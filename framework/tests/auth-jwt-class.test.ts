import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsString, MinLength } from 'class-validator';
import { BaseRouter, Config, Get, Injectable, Post, router, Use, type Request } from '../index';
import { JwtAuth, jwtAuth, Scopes } from '../auth';
import { TrellisError } from '../framework-error';
import { Body, Req } from '../param';
import { bearerAuth } from '../security';
import { TestClient } from '../testing';
import type { OpenAPIDocument } from '../openapi';
import { bearer, refusal, SECRET, token } from './fixtures/auth-tokens';
import { silentLogger } from './fixtures/captured-log';

class AuthSettings {
  @IsString() @MinLength(32) secret!: string;
}

class NewTask {
  @IsString() title!: string;
}

// The shape a project writes: the options come from the injected Config, the scheme has its own name.
@Injectable()
class RequireWriter extends JwtAuth {
  static readonly security = bearerAuth({ schemeName: 'bearerJwt', bearerFormat: 'JWT' });
  constructor(config: Config) {
    super({ secret: config.section('auth', AuthSettings).secret, realm: 'tasks' });
  }
}

class TaskRouter extends router('/tasks') {
  @Get('') list() {
    return [];
  }

  @Post('') @Use(RequireWriter) @Scopes('tasks:write') create(@Body() task: NewTask, @Req() request: Request) {
    return [{ ...task, by: request.user?.sub }, 201];
  }
}

// No static security of its own (the default, bearerAuth), and scopes every route behind it needs.
@Injectable()
class RequireAdmin extends JwtAuth {
  static readonly scopes = ['admin'];
  constructor(config: Config) {
    super({ secret: config.section('auth', AuthSettings).secret });
  }
}

@Use(RequireAdmin)
class AdminRouter extends router('/admin') {
  @Get('/stats') stats() {
    return { tasks: 0 };
  }

  @Post('/purge') @Scopes('tasks:write') purge() {
    return [{ purged: 0 }, 201];
  }
}

const app = (secret = SECRET) =>
  new BaseRouter({ logger: silentLogger() }).provide(new Config({ auth: { secret } })).includeRouter(TaskRouter).includeRouter(AdminRouter);

type Operation = { security?: unknown; responses: Record<string, unknown> };
const operation = (document: OpenAPIDocument, path: string, method: string) => (document.paths as Record<string, Record<string, Operation>>)[path]![method]!;

/** The coded error a start failed with (the error itself or its cause). */
async function startError(client: TestClient): Promise<TrellisError> {
  let failure: unknown;
  await client.start().then(
    () => assert.fail('the app started'),
    (error: unknown) => (failure = error),
  );
  const coded = failure instanceof TrellisError ? failure : (failure as { cause?: unknown }).cause;
  assert.ok(coded instanceof TrellisError, String(failure));
  return coded;
}

describe('JwtAuth subclassed, built by the container', () => {
  it('starts with @Scopes routes behind it, and answers 401, 403 and 201 as jwtAuth() does', async () => {
    const client = new TestClient(app());
    const write = { json: { title: 'x' } };
    assert.deepEqual(refusal(await client.post('/tasks', write)), { status: 401, challenge: 'Bearer realm="tasks"', body: { error: 'Missing bearer token: send Authorization: Bearer <token>' } });
    assert.deepEqual(refusal(await client.post('/tasks', { ...write, ...bearer(await token(SECRET, { scope: 'tasks:read' })) })), {
      status: 403,
      challenge: 'Bearer realm="tasks", error="insufficient_scope", error_description="The token lacks a scope this route needs", scope="tasks:write"',
      body: { error: 'The token lacks a scope this route needs' },
    });
    const created = await client.post('/tasks', { ...write, ...bearer(await token(SECRET, { scope: 'tasks:write', sub: 'ada' })) });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json(), { title: 'x', by: 'ada' });
    assert.equal((await client.get('/tasks')).status, 200);
  });

  it("checks the class's static scopes on every route behind it, with the route's @Scopes", async () => {
    const client = new TestClient(app());
    assert.equal((await client.get('/admin/stats', bearer(await token(SECRET, { scope: 'tasks:write' })))).status, 403);
    assert.equal((await client.get('/admin/stats', bearer(await token(SECRET, { scope: 'admin' })))).status, 200);
    const purge = await client.post('/admin/purge', bearer(await token(SECRET, { scope: 'admin' })));
    assert.match(String(purge.headers['www-authenticate']), /scope="admin tasks:write"$/);
    assert.equal((await client.post('/admin/purge', bearer(await token(SECRET, { scope: 'admin tasks:write' })))).status, 201);
  });

  it("documents the class's scheme (its own name, or bearerAuth), the route's scopes in the requirement, and a 403", () => {
    const document = app().openapi();
    const create = operation(document, '/tasks', 'post');
    assert.deepEqual(create.security, [{ bearerJwt: ['tasks:write'] }]);
    assert.equal((create.responses['403'] as { description: string }).description, 'Forbidden: the token lacks a scope this route needs');
    assert.ok(create.responses['401']);
    assert.equal(operation(document, '/tasks', 'get').security, undefined);
    assert.deepEqual(operation(document, '/admin/stats', 'get').security, [{ bearerAuth: ['admin'] }]);
    assert.deepEqual(operation(document, '/admin/purge', 'post').security, [{ bearerAuth: ['admin', 'tasks:write'] }]);
    assert.ok(operation(document, '/admin/stats', 'get').responses['403']);
    assert.deepEqual(document.components?.securitySchemes, {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('an instance of the subclass documents and checks the same as the class', async () => {
    const guard = new RequireAdmin(new Config({ auth: { secret: SECRET } }));
    assert.deepEqual([guard.scopes, guard.security], [['admin'], bearerAuth({ bearerFormat: 'JWT' })]);
    assert.ok(jwtAuth({ secret: SECRET }) instanceof JwtAuth);
    @Use(guard)
    class Stats extends router('/stats') {
      @Get('') @Scopes('reports:read') all() {
        return {};
      }
    }
    const router_ = new BaseRouter({ logger: silentLogger() }).includeRouter(Stats);
    assert.deepEqual(operation(router_.openapi(), '/stats', 'get').security, [{ bearerAuth: ['admin', 'reports:read'] }]);
    assert.equal((await new TestClient(router_).get('/stats', bearer(await token(SECRET, { scope: 'admin' })))).status, 403);
  });

  it('refuses schemeName, security or scopes in the options of a subclass (the document reads the class), naming it', async () => {
    for (const [option, extra] of [
      ['schemeName', { schemeName: 'jwt' }],
      ['security', { security: bearerAuth({ schemeName: 'jwt' }) }],
      ['scopes', { scopes: ['tasks:write'] as string[] }],
    ] as const) {
      @Injectable()
      class Saying extends JwtAuth {
        constructor(config: Config) {
          super({ secret: config.section('auth', AuthSettings).secret, ...extra });
        }
      }
      @Use(Saying)
      class Guarded extends router('/g') {
        @Get('') one() {
          return {};
        }
      }
      const error = await startError(new TestClient(new BaseRouter({ logger: silentLogger() }).provide(new Config({ auth: { secret: SECRET } })).includeRouter(Guarded)));
      assert.equal(error.code, 'TRELLIS_ERR_AUTH_OPTION');
      assert.deepEqual([error.details.guard, error.details.option], ['Saying', option]);
      assert.match(String(error.details.reason), option === 'scopes' ? /static readonly scopes/ : /static readonly security/);
    }
  });

  it("refuses static scopes that are not scope names, and names the subclass in an option's refusal", () => {
    class BadScopes extends JwtAuth {
      static readonly scopes = ['two words'];
    }
    assert.throws(
      () => new BadScopes({ secret: SECRET }),
      (error: TrellisError) => error.code === 'TRELLIS_ERR_AUTH_OPTION' && error.details.guard === 'BadScopes' && error.details.option === 'static scopes',
    );
    class Short extends JwtAuth {}
    assert.throws(() => new Short({ secret: 'short' }), (error: TrellisError) => error.details.guard === 'Short' && error.details.option === 'secret');
  });
});
