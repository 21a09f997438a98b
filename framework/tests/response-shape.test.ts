import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { BaseRouter, Get, JSONResponse, Middleware, Post, router, type CallNext, type Request } from '../index';
import type { TypeTable } from '../source/types/table';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';

const stored = () => ({
  id: 1,
  name: 'Ada',
  passwordHash: 'scrypt$c2FsdA$aGFzaA',
  createdAt: new Date('2024-05-01T10:00:00Z'),
  team: { id: 7, name: 'Core', secret: 'x' },
  tags: [{ id: 1, label: 'a', internal: true }],
});

class TeamOut {
  @IsInt() id!: number;
  @IsString() name!: string;
}

class UserOut {
  @IsInt() id!: number;
  @IsString() name!: string;
  @IsDate() createdAt!: Date;
  @ValidateNested() @Type(() => TeamOut) team!: TeamOut;
  @IsOptional() @IsString() nickname?: string;
}

class ClassUsers extends router('/class') {
  @Get('/one', { response: UserOut }) one() { return stored(); }
  @Get('/many', { response: [UserOut] }) many() { return [stored(), { ...stored(), id: 2, nickname: null }]; }
  @Post('/', { status: 201, response: UserOut }) create() { return [stored(), 201]; }
  @Get('/other-status', { response: UserOut }) other() { return [stored(), 202]; }
  @Get('/explicit', { response: UserOut }) explicit() { return new JSONResponse(stored()); }
  @Get('/raw', { response: UserOut, shapeResponse: false }) raw() { return stored(); }
  @Get('/missing', { response: UserOut }) missing() { return { id: 1, createdAt: new Date(0), team: { id: 1, name: 'x' } }; }
  @Get('/wrong', { response: UserOut }) wrong() { return { ...stored(), id: 'one' }; }
  @Get('/error-tuple', { response: UserOut, responses: { 404: TeamOut } }) notFound() { return [{ id: 9, name: 'gone', trace: 'at x.ts:1' }, 404]; }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${encodeURIComponent(name)}` });

class TypedUsers extends router('/typed') {
  @Get('/page') page() {
    return { items: [stored()], total: 1, counts: { a: 1, b: 2 }, matrix: [[{ x: 1, y: 2 }]], note: null, kind: 'page', hidden: 1 };
  }
  @Get('/union') union() { return [{ kind: 'a', a: 1, extra: 1 }, { kind: 'b', b: 'x', extra: 2 }]; }
  @Get('/untyped') untyped() { return stored(); }
  @Get('/opt-out', { shapeResponse: false }) optOut() { return stored(); }
  @Get('/tuple') tuple() { return [{ error: 'gone', stack: 'secret' }, 404]; }
  @Get('/free') free() { return { any: { thing: [1, { deep: true }] } }; }
}

const table: TypeTable = {
  files: {
    [__filename]: {
      'TypedUsers.page': { returns: { kind: 'json', schema: ref('Page<User>') } },
      'TypedUsers.union': {
        returns: { kind: 'json', schema: { type: 'array', items: { anyOf: [ref('A'), ref('B')] } } },
      },
      'TypedUsers.optOut': { returns: { kind: 'json', schema: ref('User') } },
      'TypedUsers.tuple': {
        returns: { kind: 'json', schema: ref('User') },
        statuses: [{ status: 404, schema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], additionalProperties: false } }],
      },
      'TypedUsers.free': { returns: { kind: 'json', schema: { type: 'object' } } },
    },
  },
  schemas: {
    User: {
      type: 'object',
      properties: {
        id: { type: 'number' },
        name: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'number' }, label: { type: 'string' } }, required: ['id', 'label'], additionalProperties: false } },
      },
      required: ['id', 'name', 'createdAt'],
      additionalProperties: false,
    },
    'Page<User>': {
      type: 'object',
      properties: {
        items: { type: 'array', items: ref('User') },
        total: { type: 'number' },
        counts: { type: 'object', additionalProperties: { type: 'number' } },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false } } },
        note: { type: ['string', 'null'] },
        kind: { type: 'string', const: 'page' },
      },
      required: ['items', 'total', 'counts', 'matrix', 'note', 'kind'],
      additionalProperties: false,
    },
    A: { type: 'object', properties: { kind: { type: 'string', const: 'a' }, a: { type: 'number' } }, required: ['kind', 'a'], additionalProperties: false },
    B: { type: 'object', properties: { kind: { type: 'string', const: 'b' }, b: { type: 'string' } }, required: ['kind', 'b'], additionalProperties: false },
  },
};

const client = (options: ConstructorParameters<typeof BaseRouter>[0] = {}) =>
  new TestClient(new BaseRouter({ logger: silentLogger(), sourceTypes: table, ...options }).includeRouter(ClassUsers).includeRouter(TypedUsers));

const USER_OUT = { id: 1, name: 'Ada', createdAt: '2024-05-01T10:00:00.000Z', team: { id: 7, name: 'Core' } };

describe('responses in their declared shape: a response class', () => {
  it('sends only the properties the class declares, nested classes included; a Date as an ISO string', async () => {
    const res = await client().get('/class/one');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json(), USER_OUT);
    assert.doesNotMatch(res.text, /passwordHash|scrypt/);
  });

  it('shapes each element of a [Class] list; an optional property may be null', async () => {
    assert.deepEqual((await client().get('/class/many')).json(), [USER_OUT, { ...USER_OUT, id: 2, nickname: null }]);
  });

  it('shapes a tuple body with the success status, and a `responses` status by its class', async () => {
    const created = await client().post('/class/');
    assert.equal(created.status, 201);
    assert.deepEqual(created.json(), USER_OUT);
    const missing = await client().get('/class/error-tuple');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { id: 9, name: 'gone' });
  });

  it('sends a tuple with an undeclared status, an explicit JSONResponse and an opted-out route as given', async () => {
    const whole = JSON.parse(JSON.stringify(stored()));
    for (const path of ['/class/other-status', '/class/explicit', '/class/raw']) {
      assert.deepEqual((await client().get(path)).json(), whole, path);
    }
  });

  it('answers 500 without the body when a required property is missing or a value has another type, and logs why', async () => {
    const { logger, lines } = capturedLog('error');
    const api = client({ logger });
    for (const [path, reason] of [['/class/missing', /"name" is required/], ['/class/wrong', /does not match/]] as const) {
      const res = await api.get(path);
      assert.equal(res.status, 500);
      assert.deepEqual(res.json(), { error: 'Internal Server Error' });
      const line = lines.at(-1)!;
      assert.equal(line.err?.code, 'TRELLIS_ERR_RESPONSE_SHAPE');
      assert.match(line.err!.message, /^ClassUsers\.(missing|wrong) answered 200 with a body that does not fit its declared response/);
      assert.match(line.err!.message, reason);
      assert.equal(line.reqId, res.headers['x-request-id']);
    }
  });

  it('lets middleware read what the handler returned in `content`', async () => {
    let seen: unknown;
    class Peek extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        seen = (response as JSONResponse).content;
        return response;
      }
    }
    const app = new BaseRouter({ logger: silentLogger() }).includeRouter(ClassUsers).addMiddleware(Peek);
    assert.deepEqual((await new TestClient(app).get('/class/one')).json(), USER_OUT);
    assert.equal((seen as { passwordHash: string }).passwordHash, stored().passwordHash);
  });
});

describe('responses in their declared shape: a return type read from the source', () => {
  it('keeps declared properties of named schemas, nested arrays, a Record, null; drops the rest', async () => {
    const res = await client().get('/typed/page');
    assert.deepEqual(res.json(), {
      items: [{ id: 1, name: 'Ada', createdAt: '2024-05-01T10:00:00.000Z', tags: [{ id: 1, label: 'a' }] }],
      total: 1,
      counts: { a: 1, b: 2 },
      matrix: [[{ x: 1 }]],
      note: null,
      kind: 'page',
    });
  });

  it('sends each element of a union in the first branch it fits', async () => {
    assert.deepEqual((await client().get('/typed/union')).json(), [{ kind: 'a', a: 1 }, { kind: 'b', b: 'x' }]);
  });

  it('shapes a tuple with a status the source declares; a free-form object is sent whole', async () => {
    const res = await client().get('/typed/tuple');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), { error: 'gone' });
    assert.deepEqual((await client().get('/typed/free')).json(), { any: { thing: [1, { deep: true }] } });
  });

  it('leaves routes without a known type, opted-out routes, and apps without a table as they were', async () => {
    const whole = JSON.parse(JSON.stringify(stored()));
    assert.deepEqual((await client().get('/typed/untyped')).json(), whole);
    assert.deepEqual((await client().get('/typed/opt-out')).json(), whole);
    assert.deepEqual((await client({ sourceTypes: false }).get('/typed/page')).json().hidden, 1);
  });

  it('keeps the shape around a type that contains itself through a union, sending such values whole', async () => {
    // `type FormValue = string | FormValue[] | { [key: string]: FormValue }`: fast-json-stringify alone overflows its stack.
    const formValue = { anyOf: [{ type: 'string' }, { type: 'array', items: ref('FormValue') }, { type: 'object', additionalProperties: ref('FormValue') }] };
    const recursive: TypeTable = {
      files: { [__filename]: { 'TypedUsers.free': { returns: { kind: 'json', schema: { type: 'object', properties: { any: ref('FormValue') }, required: ['any'] } } } } },
      schemas: { FormValue: formValue },
    };
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: recursive }).includeRouter(TypedUsers);
    const res = await new TestClient(app).get('/typed/free');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { any: { thing: [1, { deep: true }] } });
  });

  it('refuses to start when a declared schema cannot be compiled (TRELLIS_ERR_RESPONSE_SCHEMA)', async () => {
    const broken: TypeTable = { files: { [__filename]: { 'TypedUsers.page': { returns: { kind: 'json', schema: ref('Nowhere') } } } }, schemas: {} };
    const app = new BaseRouter({ logger: silentLogger(), sourceTypes: broken }).includeRouter(TypedUsers);
    await assert.rejects(app.start(), (error: Error & { code?: string; details?: unknown }) => {
      assert.equal(error.code, 'TRELLIS_ERR_RESPONSE_SCHEMA');
      assert.deepEqual(error.details, { handler: 'TypedUsers.page', status: 200, reason: '#/components/schemas/Nowhere names no schema' });
      return true;
    });
  });
});
