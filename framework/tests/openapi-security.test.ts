import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiKeyHeader, basicAuth, bearerAuth, type SecurityScheme } from '../security';
import { BaseRouter, Get, Injectable, JSONResponse, Middleware, Post, router, Use, type CallNext, type Request } from '../index';
import type { OpenAPIDocument } from '../openapi';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

const TOKEN = 'Bearer s3cret';

class RequireToken extends Middleware {
  static readonly security = bearerAuth();
  async dispatch(request: Request, callNext: CallNext) {
    if (request.headers.authorization !== TOKEN) {
      return new JSONResponse({ error: 'Unauthorized' }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    return callNext(request);
  }
}

class RequireLogin extends Middleware {
  static readonly security = basicAuth({ description: 'The staff account' });
  dispatch(request: Request, callNext: CallNext) { return callNext(request); }
}

/** Configured per instance: the instance's `security` says which header. */
class RequireApiKey extends Middleware {
  readonly security: SecurityScheme;
  constructor(header: string) {
    super();
    this.security = apiKeyHeader(header);
  }
  dispatch(request: Request, callNext: CallNext) { return callNext(request); }
}

/** Takes either credential: any one of its schemes. */
class TokenOrKey extends Middleware {
  static readonly security = [bearerAuth(), apiKeyHeader('X-Key')];
  dispatch(request: Request, callNext: CallNext) { return callNext(request); }
}

class Timing extends Middleware {
  dispatch(request: Request, callNext: CallNext) { return callNext(request); }
}

class Open extends router('/open') {
  @Get() list() { return []; }
  @Get('/guarded') @Use(RequireToken) guarded() { return {}; }
}

@Use(RequireToken)
class Admin extends router('/admin') {
  @Get('/stats') stats() { return {}; }
  @Post('/reset', { responses: { 401: 'Only admins reset' } }) reset() { return {}; }
}

@Injectable()
class Staff extends router('/staff') {
  constructor() {
    super();
    this.addMiddleware(RequireLogin, Timing);
  }
  @Get() list() { return []; }
}

const HTTP_ERROR_REF = { $ref: '#/components/schemas/HTTPError' };
const UNAUTHORIZED = {
  description: 'Unauthorized: credentials missing or wrong',
  headers: { 'WWW-Authenticate': { description: 'The authentication scheme to use, e.g. `Bearer`', schema: { type: 'string' } } },
  content: { 'application/json': { schema: HTTP_ERROR_REF } },
};

type Operation = OpenAPIDocument['paths'][string][string];

function operations(document: OpenAPIDocument): Record<string, Operation> {
  return Object.fromEntries(
    Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op])),
  );
}

function securityByRoute(document: OpenAPIDocument): Record<string, unknown> {
  return Object.fromEntries(Object.entries(operations(document)).map(([route, op]) => [route, op.security ?? null]));
}

describe('OpenAPI security from the middleware guarding the routes', () => {
  it('documents security and a 401 on exactly the routes behind a guard (@Use on a class or a handler, a router\'s addMiddleware)', async () => {
    const app = new BaseRouter().includeRouter(new Open()).includeRouter(Admin).includeRouter(Staff);
    await app.start();
    const document = app.openapi();
    assert.deepEqual(securityByRoute(document), {
      'GET /open': null,
      'GET /open/guarded': [{ bearerAuth: [] }],
      'GET /admin/stats': [{ bearerAuth: [] }],
      'POST /admin/reset': [{ bearerAuth: [] }],
      'GET /staff': [{ basicAuth: [] }],
    });
    assert.deepEqual(document.components?.securitySchemes, {
      basicAuth: { type: 'http', scheme: 'basic', description: 'The staff account' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    const ops = operations(document);
    assert.deepEqual(ops['GET /admin/stats'].responses['401'], UNAUTHORIZED);
    assert.deepEqual(ops['GET /staff'].responses['401'], UNAUTHORIZED);
    assert.equal(ops['GET /open'].responses['401'], undefined, 'open routes document no 401');
    assert.deepEqual(ops['POST /admin/reset'].responses['401'], { description: 'Only admins reset', content: { 'application/json': { schema: HTTP_ERROR_REF } } }, 'the route\'s own 401 wins');
    assert.deepEqual(document.components?.schemas?.HTTPError, { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
    // What the document says is what the server does.
    const client = new TestClient(app);
    const refused = await client.get('/admin/stats');
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer');
    assert.deepEqual(refused.json(), { error: 'Unauthorized' });
    assert.equal((await client.get('/admin/stats', { headers: { authorization: TOKEN } })).status, 200);
    assert.equal((await client.get('/open')).status, 200);
  });

  it('guards every route with app-wide middleware, and leaves the docs pages out of the document', () => {
    const app = new BaseRouter().includeRouter(new Open()).addMiddleware(Timing, RequireToken);
    const document = app.openapi();
    assert.deepEqual(securityByRoute(document), { 'GET /open': [{ bearerAuth: [] }], 'GET /open/guarded': [{ bearerAuth: [] }] });
    assert.deepEqual(Object.keys(document.components?.securitySchemes ?? {}), ['bearerAuth']);
  });

  it('reads an instance\'s own security, an Express function\'s, and combines guards (all of them; any scheme of one)', () => {
    const passport = Object.assign((_req: unknown, _res: unknown, next: () => void) => next(), { security: bearerAuth({ bearerFormat: 'JWT', schemeName: 'jwt' }) });
    class Mixed extends router('/mixed') {
      @Get('/key') @Use(new RequireApiKey('X-Key')) key() { return {}; }
      @Get('/jwt') @Use(passport) jwt() { return {}; }
      @Get('/both') @Use(RequireLogin, new RequireApiKey('X-Key')) both() { return {}; }
      @Get('/either') @Use(TokenOrKey) either() { return {}; }
      @Get('/either-and-login') @Use(RequireLogin, TokenOrKey) eitherAndLogin() { return {}; }
    }
    const document = new BaseRouter().includeRouter(new Mixed()).openapi();
    assert.deepEqual(securityByRoute(document), {
      'GET /mixed/key': [{ apiKeyAuth: [] }],
      'GET /mixed/jwt': [{ jwt: [] }],
      'GET /mixed/both': [{ basicAuth: [], apiKeyAuth: [] }],
      'GET /mixed/either': [{ bearerAuth: [] }, { apiKeyAuth: [] }],
      'GET /mixed/either-and-login': [{ basicAuth: [], bearerAuth: [] }, { basicAuth: [], apiKeyAuth: [] }],
    });
    assert.deepEqual(document.components?.securitySchemes, {
      apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Key' },
      basicAuth: { type: 'http', scheme: 'basic', description: 'The staff account' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('refuses two different schemes under one name (TRELLIS_ERR_SECURITY_SCHEME_CLASH)', () => {
    class Keys extends router('/keys') {
      @Get('/a') @Use(new RequireApiKey('X-Key')) a() { return {}; }
      @Get('/b') @Use(new RequireApiKey('X-Other-Key')) b() { return {}; }
    }
    assert.throws(
      () => new BaseRouter().includeRouter(new Keys()).openapi(),
      (error: TrellisError) => error.code === 'TRELLIS_ERR_SECURITY_SCHEME_CLASH' && /apiKeyAuth/.test(error.message),
    );
  });

  it('an app without guards: servers name the root, security is explicitly open, no securitySchemes', () => {
    class Plain extends router('/plain') {
      @Get() list() { return []; }
    }
    const document = new BaseRouter().includeRouter(new Plain()).addMiddleware(Timing).openapi();
    assert.deepEqual(document.servers, [{ url: '/' }]);
    assert.deepEqual(document.security, []);
    assert.equal(document.components?.securitySchemes, undefined);
    assert.equal(operations(document)['GET /plain'].security, undefined);
    assert.equal(operations(document)['GET /plain'].responses['401'], undefined);
  });

  it('knows a router\'s addMiddleware once the app has started (the document is rebuilt then)', async () => {
    const app = new BaseRouter().includeRouter(Staff);
    assert.equal(operations(app.openapi())['GET /staff'].security, undefined, 'before start the router is not built');
    await app.start();
    assert.deepEqual(operations(app.openapi())['GET /staff'].security, [{ basicAuth: [] }]);
    const served = (await new TestClient(app).get('/docs/openapi.json')).json() as OpenAPIDocument;
    assert.deepEqual(served.paths['/staff'].get.security, [{ basicAuth: [] }]);
    assert.deepEqual(served.servers, [{ url: '/' }]);
  });
});
