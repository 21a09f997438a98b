import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Validate, ValidateIf, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { BaseRouter, Post, router } from '../index';
import { TrellisError } from '../framework-error';
import { Body } from '../param';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

// TypeScript refuses `@IsString() toString!: string` (the decorator's target type is `Object`, whose toString is a
// method), and a field named `constructor`: the decorators are applied as the compiled class would apply them.
type PropertyDecorator = (target: object, key: string) => void;
const decorate = (cls: Function, key: string, ...decorators: PropertyDecorator[]) => {
  for (const decorator of decorators) decorator(cls.prototype, key);
};

class Names {
  @IsString() name!: string;
}
for (const key of ['toString', 'valueOf', 'hasOwnProperty']) decorate(Names, key, IsString());
decorate(Names, 'isPrototypeOf', IsOptional(), IsInt());

@ValidatorConstraint({ name: 'isCode' })
class IsCode implements ValidatorConstraintInterface {
  validate(value: unknown) { return typeof value === 'string'; }
}

/** Falls back to class-validator's `validate` (a custom constraint). */
class FallbackNames {
  @Validate(IsCode) code!: string;
}
decorate(FallbackNames, 'toString', IsString());
decorate(FallbackNames, 'valueOf', IsOptional(), IsInt());

class OptionalNames {
  @IsString() name!: string;
}
decorate(OptionalNames, 'toString', IsOptional(), IsString());

class FallbackHolder {
  @Validate(IsCode) code!: string;
  @ValidateNested() @Type(() => OptionalNames) inner!: OptionalNames;
}

class Holder {
  @ValidateNested() @Type(() => Names) inner!: Names;
}

class Conditional {
  @ValidateIf(() => { throw new Error('a condition of ours that throws'); }) @IsString() name!: string;
}

class Api extends router('/') {
  @Post('/names', { shapeResponse: false }) names(@Body() body: Names) { return { ...body }; }
  @Post('/fallback', { shapeResponse: false }) fallback(@Body() body: FallbackNames) { return { ...body }; }
  @Post('/fallback-holder', { shapeResponse: false }) fallbackHolder(@Body() body: FallbackHolder) { return { inner: { ...body.inner } }; }
  @Post('/holder', { shapeResponse: false }) holder(@Body() body: Holder) { return { inner: { ...body.inner } }; }
  @Post('/conditional') conditional(@Body() body: Conditional) { return body; }
}

const NAMES = { name: 'n', toString: 't', valueOf: 'v', hasOwnProperty: 'h' };

describe('DTO properties named like members of Object.prototype', () => {
  const client = new TestClient(new BaseRouter({ docs: false }).includeRouter(Api));

  it('validate like any other name: a valid body is 200, a wrong value is a 422 naming the field', async () => {
    const ok = await client.post('/names', { json: { ...NAMES, isPrototypeOf: 3 } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { ...NAMES, isPrototypeOf: 3 });
    const wrong = await client.post('/names', { json: { ...NAMES, valueOf: 1 } });
    assert.equal(wrong.status, 422);
    assert.deepEqual(wrong.json().details, [{ location: 'body', field: 'valueOf', message: 'valueOf must be a string' }]);
  });

  it('an optional one the body leaves out is absent, not Object.prototype\'s member; a required one is missing', async () => {
    assert.equal((await client.post('/names', { json: NAMES })).status, 200);
    const missing = await client.post('/names', { json: { name: 'n' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json().details.map((detail: { field: string }) => detail.field), ['toString', 'valueOf', 'hasOwnProperty']);
  });

  it('validate in a nested class, and in a class that falls back to class-validator', async () => {
    const nested = await client.post('/holder', { json: { inner: { ...NAMES, valueOf: 2 } } });
    assert.equal(nested.status, 422);
    assert.deepEqual(nested.json().details, [{ location: 'body', field: 'inner.valueOf', message: 'valueOf must be a string' }]);
    assert.deepEqual((await client.post('/holder', { json: { inner: NAMES } })).json(), { inner: NAMES });
    const fallback = await client.post('/fallback', { json: { code: 'c', toString: 't' } });
    assert.equal(fallback.status, 200);
    assert.deepEqual(fallback.json(), { code: 'c', toString: 't' });
    const nestedFallback = await client.post('/fallback-holder', { json: { code: 'c', inner: { name: 'n' } } });
    assert.equal(nestedFallback.status, 200, nestedFallback.text);
    assert.deepEqual(nestedFallback.json(), { inner: { name: 'n' } });
    const wrong = await client.post('/fallback', { json: { code: 'c', toString: 5 } });
    assert.equal(wrong.status, 422);
    assert.deepEqual(wrong.json().details, [{ location: 'body', field: 'toString', message: 'toString must be a string' }]);
  });
});

describe('DTO properties no JSON body can set', () => {
  for (const name of ['__proto__', 'constructor']) {
    it(`refuses a property named ${name} at startup with TRELLIS_ERR_DTO_PROPERTY_NAME`, () => {
      class Bad {
        @IsString() title!: string;
      }
      decorate(Bad, name, IsString());
      class Outer {
        @ValidateNested() @Type(() => Bad) bad!: Bad;
      }
      class BadApi extends router('/') {
        @Post('/outer') outer(@Body() body: Outer) { return body; }
      }
      assert.throws(() => new BaseRouter().includeRouter(BadApi), (error: unknown) => {
        assert.ok(error instanceof TrellisError);
        assert.equal(error.code, 'TRELLIS_ERR_DTO_PROPERTY_NAME');
        assert.deepEqual(error.details, { handler: 'BadApi.outer', property: `Bad.${name}`, name });
        return true;
      });
    });
  }
});

describe('a failure of validation code that is not the body\'s', () => {
  it('is a 500 with the error in the log, never a 422', async () => {
    const { logger, lines } = capturedLog('error');
    const res = await new TestClient(new BaseRouter({ docs: false, logger }).includeRouter(Api)).post('/conditional', { json: { name: 'n' } });
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.ok(lines.some((line) => line.err?.message === 'a condition of ours that throws'));
  });
});
