import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Expose, Type } from 'class-transformer';
import { Allow, IsInt, IsString, ValidateNested } from 'class-validator';
import { BaseRouter, Get, Post, router } from '../index';
import { TrellisError } from '../framework-error';
import type { RouteOptions } from '../metadata';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

// One response contract in every mode: a declared shape is sent as declared, or the app refuses to start, never a
// silent send-all (`passwordHash` included).

interface User {
  id: number;
  name: string;
}

const stored = () => ({ id: 1, name: 'Ada', passwordHash: 'scrypt$c2FsdA$aGFzaA', apiKey: 'k-123' });

/** Plain properties, no decorator: nothing of it is known at run time. */
class PlainOut {
  id = 0;
  name = '';
}

class ExposedOut {
  @Expose() id!: number;
  @Expose() name!: string;
}

class AllowedOut {
  @Allow() id!: number;
  @IsString() name!: string;
}

class Wrapper {
  @IsInt() total!: number;
  @ValidateNested() @Type(() => PlainOut) first!: PlainOut;
}

const appWith = (routerClass: Function, options: ConstructorParameters<typeof BaseRouter>[0] = {}) =>
  new BaseRouter({ logger: silentLogger(), docs: false, ...options }).includeRouter(routerClass as never);

async function refused(app: BaseRouter, details: Record<string, unknown>): Promise<void> {
  await assert.rejects(app.start(), (error: unknown) => {
    assert.ok(error instanceof TrellisError, String(error));
    assert.equal(error.code, 'TRELLIS_ERR_RESPONSE_UNKNOWN');
    for (const [name, value] of Object.entries(details)) {
      if (value instanceof RegExp) assert.match(String(error.details[name]), value);
      else assert.equal(error.details[name], value, name);
    }
    assert.match(error.message, /shapeResponse: false/);
    return true;
  });
}

const routeWith = (options: RouteOptions, body: () => unknown = stored) => {
  class Api extends router('/') {
    @Get('/x', options) x() { return body(); }
  }
  return Api;
};

describe('a response class whose properties are not known at run time', () => {
  it('refuses to start, naming the route, for `response: Class`, `[Class]` and a `responses` class', async () => {
    await refused(appWith(routeWith({ response: PlainOut })), { handler: 'Api.x', status: 200, declared: 'PlainOut', reason: /it has no property/ });
    await refused(appWith(routeWith({ response: [PlainOut] }, () => [stored()])), { handler: 'Api.x', status: 200, declared: '[PlainOut]' });
    await refused(appWith(routeWith({ response: ExposedOut, responses: { 404: PlainOut } })), { handler: 'Api.x', status: 404, declared: 'PlainOut' });
  });

  it('refuses a class that nests one, naming the nested class', async () => {
    await refused(appWith(routeWith({ response: Wrapper })), { declared: 'Wrapper', reason: /it nests PlainOut, which has no property/ });
  });

  it('sends only the properties declared with @Expose() or any class-validator rule (@Allow() included)', async () => {
    for (const response of [ExposedOut, AllowedOut]) {
      const res = await new TestClient(appWith(routeWith({ response }))).get('/x');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json(), { id: 1, name: 'Ada' });
      assert.doesNotMatch(res.text, /passwordHash|apiKey/);
    }
    const many = await new TestClient(appWith(routeWith({ response: [ExposedOut] }, () => [stored(), stored()]))).get('/x');
    assert.deepEqual(many.json(), [{ id: 1, name: 'Ada' }, { id: 1, name: 'Ada' }]);
  });

  it('sends bodies whole only when the route opts out with shapeResponse: false', async () => {
    const res = await new TestClient(appWith(routeWith({ response: PlainOut, shapeResponse: false }))).get('/x');
    assert.deepEqual(res.json(), stored());
  });
});

class Users extends router('/users') {
  @Post('/') async create(): Promise<User> { return stored(); }
  @Get('/{id}') one(): User { return stored(); }
}

class Untyped extends router('/plain') {
  @Get('/') list() { return [stored()]; }
  @Get('/name') name(): string { return 'Ada'; }
  @Get('/raw', { shapeResponse: false }) async raw(): Promise<User> { return stored(); }
}

describe('a TypeScript return type whose source this process cannot read', () => {
  it('refuses to start, naming the route, where the source types are not read (as in an app built by plain tsc)', async () => {
    await refused(appWith(Users, { sourceTypes: false }), { handler: 'Users.create', status: 200, declared: 'Promise (its TypeScript return type)', reason: /source cannot be read/ });
    class One extends router('/one') {
      @Get('/') one(): User { return stored(); }
    }
    await refused(appWith(One, { sourceTypes: { files: {}, schemas: {} } }), { handler: 'One.one', declared: 'Object (its TypeScript return type)' });
  });

  it('shapes the same routes by the type read from their source', async () => {
    const client = new TestClient(appWith(Users));
    for (const res of [await client.post('/users/'), await client.get('/users/1')]) {
      assert.deepEqual(res.json(), { id: 1, name: 'Ada' });
    }
  });

  it('starts with handlers that declare no type or a scalar, and with opted-out routes', async () => {
    const client = new TestClient(appWith(Untyped, { sourceTypes: false }));
    assert.deepEqual((await client.get('/plain/')).json(), [stored()]);
    assert.equal((await client.get('/plain/name')).text, '"Ada"');
    assert.deepEqual((await client.get('/plain/raw')).json(), stored());
  });
});
