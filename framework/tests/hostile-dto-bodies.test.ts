import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsNumber, IsString, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { BaseRouter, Post, router } from '../index';
import { Body } from '../param';
import { TestClient } from '../testing';

// Bodies on which class-transformer or class-validator themselves throw (found by the equivalence property tests):
// each is the client's 422, never a 500.

class Priced {
  @IsNumber({ maxDecimalPlaces: 2 }) price!: number;
}

@ValidatorConstraint({ name: 'isCode' })
class IsCode implements ValidatorConstraintInterface {
  validate(value: unknown) { return typeof value === 'string'; }
}

// Falls back to class-validator (a custom constraint), where isNumber's throw rejects `validate`.
class PricedCode {
  @IsNumber({ maxDecimalPlaces: 2 }) price!: number;
  @Validate(IsCode) code!: string;
}

class Meta {
  @ValidateNested() meta!: unknown; // no @Type: the nested object stays plain
  @IsString() name!: string;
}

class Line {
  @IsString() sku!: string;
}

class Order {
  @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
}

class Api extends router('/') {
  @Post('/priced') priced(@Body() body: Priced) { return body; }
  @Post('/coded') coded(@Body() body: PricedCode) { return body; }
  @Post('/meta') meta(@Body() body: Meta) { return body; }
  @Post('/order') order(@Body() body: Order) { return body; }
}

describe('DTO bodies the validation libraries throw on', () => {
  const client = new TestClient(new BaseRouter().includeRouter(new Api()));

  it('a number in exponent form under maxDecimalPlaces fails the rule (compiled) or the body (class-validator): 422', async () => {
    const priced = await client.post('/priced', { body: '{"price":1e-7}', headers: { 'content-type': 'application/json' } });
    assert.equal(priced.status, 422);
    assert.deepEqual(priced.json().details, [
      { location: 'body', field: 'price', message: 'price must be a number conforming to the specified constraints' },
    ]);
    const coded = await client.post('/coded', { body: '{"price":1e-7,"code":"a"}', headers: { 'content-type': 'application/json' } });
    assert.equal(coded.status, 422);
    assert.deepEqual(coded.json().details, [{ location: 'body', field: '', message: 'Input could not be validated' }]);
  });

  it('a nested plain object whose own constructor is null or a number: 422', async () => {
    const nulled = await client.post('/meta', { json: { meta: { constructor: null }, name: 'x' } });
    assert.equal(nulled.status, 422);
    assert.deepEqual(nulled.json().details, [
      { location: 'body', field: 'meta.undefined', message: 'an unknown value was passed to the validate function' },
    ]);
    const order = await client.post('/order', { json: { lines: [[{ x: { constructor: 1 } }]] } });
    assert.equal(order.status, 422);
    assert.deepEqual(order.json().details, [{ location: 'body', field: '', message: 'Input could not be validated' }]);
  });
});
