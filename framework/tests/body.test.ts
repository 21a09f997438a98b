import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsBoolean, IsEmail, IsInt, IsOptional, IsString, Length, Min, Validate, ValidateNested, ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { BaseRouter, Post, Put, router } from '../index';
import { TrellisError } from '../framework-error';
import { Body, Int, Path } from '../param';
import { TestClient } from '../testing';

class TaskIn {
  @IsString() @Length(1, 50) title!: string;
  @IsOptional() @IsString() description = '';
  @IsOptional() @IsBoolean() completed = false;
}

class Item {
  @IsString() @Length(1, 20) name!: string;
  @IsInt() @Min(1) quantity!: number;
}

class Order {
  @IsEmail() email!: string;
  @ValidateNested({ each: true }) @Type(() => Item) @ArrayMaxSize(3) items!: Item[];
}

let seen: unknown;
class Api extends router('/api') {
  @Post('/tasks') create(@Body() body: TaskIn) {
    seen = body;
    return [{ ...body, isTaskIn: body instanceof TaskIn }, 201];
  }
  @Post('/orders') order(@Body() order: Order) { return order; }
  @Post('/batch') batch(@Body({ type: Item }) items: Item[]) { return { count: items.length, names: items.map((i) => i.name) }; }
  @Put('/tasks/{id}') replace(@Path('id', { type: Int }) id: number, @Body() body: TaskIn) { return { id, ...body }; }
  @Post('/raw') raw(@Body() body: unknown) { return { got: body }; }
}

const client = new TestClient(new BaseRouter().includeRouter(new Api()));

describe('JSON bodies', () => {
  it('parses, validates and hands the handler an instance with defaults', async () => {
    const res = await client.post('/api/tasks', { json: { title: 'Write docs' } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { title: 'Write docs', description: '', completed: false, isTaskIn: true });
  });

  it('strips unknown properties before the handler sees them', async () => {
    const res = await client.post('/api/tasks', { json: { title: 'x', admin: true, id: 99 } });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { title: 'x', description: '', completed: false, isTaskIn: true });
    assert.equal(Object.hasOwn(seen as object, 'admin'), false);
  });

  it('answers 422 with the envelope, naming nested fields', async () => {
    const res = await client.post('/api/orders', { json: { email: 'nope', items: [{ name: 'ok', quantity: 1 }, { name: '', quantity: 0 }] } });
    assert.equal(res.status, 422);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const body = res.json();
    assert.equal(body.error, 'Validation failed');
    assert.deepEqual(
      body.details.map((d: { location: string; field: string }) => `${d.location}:${d.field}`).sort(),
      ['body:email', 'body:items[1].name', 'body:items[1].quantity'],
    );
    assert.ok(body.details.every((d: { message: string }) => typeof d.message === 'string' && d.message.length > 0));
  });

  it('validates every element of an array body', async () => {
    const ok = await client.post('/api/batch', { json: [{ name: 'a', quantity: 1 }, { name: 'b', quantity: 2 }] });
    assert.deepEqual(ok.json(), { count: 2, names: ['a', 'b'] });
    const bad = await client.post('/api/batch', { json: [{ name: 'a', quantity: 1 }, { name: 'b', quantity: -1, extra: 1 }] });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json().details, [{ location: 'body', field: '[1].quantity', message: 'quantity must not be less than 1' }]);
    const notArray = await client.post('/api/batch', { json: { name: 'a', quantity: 1 } });
    assert.deepEqual(notArray.json().details, [{ location: 'body', field: '', message: 'Input should be an array' }]);
  });

  it('reports path and body failures together and runs no handler', async () => {
    seen = undefined;
    const res = await client.put('/api/tasks/x', { json: { title: 5 } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details.map((d: { location: string }) => d.location), ['path', 'body', 'body']);
    assert.equal(seen, undefined);
  });

  it('treats a missing body and a non-object body as validation failures', async () => {
    const missing = await client.post('/api/tasks');
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json().details, [{ location: 'body', field: '', message: 'Field required' }]);
    const scalar = await client.post('/api/tasks', { json: 'title' });
    assert.deepEqual(scalar.json().details, [{ location: 'body', field: '', message: 'Input should be an object' }]);
  });

  it('answers malformed JSON with 400 {error}', async () => {
    const res = await client.post('/api/tasks', { body: '{"title": ', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), { error: 'Malformed JSON body' });
  });

  it('rejects __proto__ and constructor.prototype keys with 400 and leaves Object.prototype clean', async () => {
    for (const body of ['{"title":"x","__proto__":{"polluted":true}}', '{"title":"x","constructor":{"prototype":{"polluted":true}}}', '{"a":[{"__proto__":{"polluted":true}}]}']) {
      const res = await client.post('/api/raw', { body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, body);
      assert.match(res.json().error, /__proto__/);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await client.post('/api/tasks', { body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assert.deepEqual(res.json(), { error: 'Content-Type must be application/json' });
  });

  it('answers a body over the limit with 413', async () => {
    const small = new TestClient(new BaseRouter({ bodyLimit: 64 }).includeRouter(new Api()));
    const res = await small.post('/api/tasks', { json: { title: 'x'.repeat(100) } });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json(), { error: 'Request body is larger than 64 bytes' });
  });

  it('passes untyped bodies through unvalidated', async () => {
    assert.deepEqual((await client.post('/api/raw', { json: [1, { a: 2 }] })).json(), { got: [1, { a: 2 }] });
  });

  it('refuses at startup a body class with no validation rules (every field would be stripped)', () => {
    class Loose { title!: string; }
    class R extends router('/r') {
      @Post() create(@Body() body: Loose) { return body; }
    }
    assert.throws(() => new BaseRouter().includeRouter(new R()), (e: TrellisError) => e.code === 'TRELLIS_ERR_BODY_UNVALIDATED' && /Loose/.test(e.message));
  });

  it('waits for rules that answer with a promise, declared async or not', async () => {
    const taken = new Set(['taken']);
    @ValidatorConstraint({ name: 'freeName', async: true })
    class FreeName implements ValidatorConstraintInterface {
      validate(name: string) { return new Promise<boolean>((resolve) => setTimeout(() => resolve(!taken.has(name)), 5)); }
      defaultMessage() { return 'name is taken'; }
    }
    // Not declared async, yet returns a promise: class-validator's `validate` still waits for it.
    @ValidatorConstraint({ name: 'notReserved' })
    class NotReserved implements ValidatorConstraintInterface {
      validate(name: string) { return Promise.resolve(name !== 'admin'); }
      defaultMessage() { return 'name is reserved'; }
    }
    class Signup {
      @IsString() @Validate(FreeName) @Validate(NotReserved) name!: string;
    }
    class R extends router('/signup') {
      @Post() create(@Body() body: Signup) { return body; }
    }
    const signup = new TestClient(new BaseRouter().includeRouter(new R()));
    const messages = async (name: string) => {
      const res = await signup.post('/signup', { json: { name } });
      return [res.status, res.status === 422 ? res.json().details.map((d: { message: string }) => d.message) : res.json()];
    };
    assert.deepEqual(await messages('taken'), [422, ['name is taken']]);
    assert.deepEqual(await messages('admin'), [422, ['name is reserved']]);
    assert.deepEqual(await messages('free'), [200, { name: 'free' }]);
  });
});
