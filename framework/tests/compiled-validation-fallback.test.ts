import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Transform, Type } from 'class-transformer';
import {
  IsInt, IsString, MaxLength, registerDecorator, Validate, ValidateNested, ValidatorConstraint,
  type ValidationOptions, type ValidatorConstraintInterface,
} from 'class-validator';
import { BaseRouter, Post, router } from '../index';
import { Body } from '../param';
import { compileRules } from '../pipeline/compiled';
import { TestClient } from '../testing';

@ValidatorConstraint({ name: 'IsSlug' })
class IsSlug implements ValidatorConstraintInterface {
  validate(value: unknown) { return typeof value === 'string' && /^[a-z-]+$/.test(value); }
  defaultMessage() { return '$property must be a slug'; }
}

@ValidatorConstraint({ name: 'isFree', async: true })
class IsFree implements ValidatorConstraintInterface {
  async validate(value: unknown) { return value !== 'taken'; }
  defaultMessage() { return '$property is taken'; }
}

function IsEven(options?: ValidationOptions) {
  return (object: object, propertyName: string) => registerDecorator({
    name: 'isEven', target: object.constructor, propertyName, options,
    validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 },
  });
}

class Sluggy { @IsString() @Validate(IsSlug) slug!: string }
class Handle { @IsString() @Validate(IsFree) handle!: string }
class Even { @IsEven() n!: number }
class Grouped { @IsString({ groups: ['admin'] }) role!: string }
class HoldsSluggy { @IsInt() n!: number; @ValidateNested() @Type(() => Sluggy) inner!: Sluggy }
class Transformed { @ValidateNested() @Transform(({ value }) => value) @Type(() => Sluggy) inner!: Sluggy }
class Plain { @IsString() @MaxLength(3) name!: string }

describe('compiled validation: what falls back to class-validator, and why', () => {
  it('names the class, the property and the rule in one line', () => {
    const reasons = [Sluggy, Handle, Even, Grouped, HoldsSluggy, Transformed].map((cls) => {
      const rules = compileRules(cls);
      return rules.kind === 'fallback' ? rules.reason : 'compiled';
    });
    assert.deepEqual(reasons, [
      'Sluggy.slug: custom constraint IsSlug',
      'Handle.handle: async constraint isFree',
      'Even.n: custom constraint isEven',
      'Grouped.role: validation groups',
      'HoldsSluggy.inner: nests Sluggy, which falls back (Sluggy.slug: custom constraint IsSlug)',
      'Transformed.inner: @Transform on a nested property',
    ]);
    assert.equal(compileRules(Plain).kind, 'compiled');
    assert.equal(compileRules(Plain), compileRules(Plain));
  });

  it('serves compiled and fallen-back classes with the same 422 envelope', async () => {
    class Api extends router('/') {
      @Post('/plain') plain(@Body() body: Plain) { return body; }
      @Post('/slug') slug(@Body() body: Sluggy) { return body; }
      @Post('/handle') handle(@Body() body: Handle) { return body; }
      @Post('/holds') holds(@Body() body: HoldsSluggy) { return body; }
      @Post('/plains') plains(@Body({ type: Plain }) items: Plain[]) { return items; }
    }
    const client = new TestClient(new BaseRouter().includeRouter(new Api()));
    const ok = await client.post('/plain', { json: { name: 'abc', extra: 1 } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { name: 'abc' });
    const bad = await client.post('/plain', { json: { name: 'abcd' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json().details, [{ location: 'body', field: 'name', message: 'name must be shorter than or equal to 3 characters' }]);
    const slug = await client.post('/slug', { json: { slug: 'No Slug' } });
    assert.deepEqual(slug.json().details, [{ location: 'body', field: 'slug', message: 'slug must be a slug' }]);
    const handle = await client.post('/handle', { json: { handle: 'taken' } });
    assert.deepEqual(handle.json().details, [{ location: 'body', field: 'handle', message: 'handle is taken' }]);
    const holds = await client.post('/holds', { json: { n: 1.5, inner: { slug: 'No', x: 1 } } });
    assert.deepEqual(holds.json().details, [
      { location: 'body', field: 'n', message: 'n must be an integer number' },
      { location: 'body', field: 'inner.slug', message: 'slug must be a slug' },
    ]);
    assert.deepEqual((await client.post('/plains', { json: [{ name: 'a' }, { name: 'b', x: 1 }] })).json(), [{ name: 'a' }, { name: 'b' }]);
    const items = await client.post('/plains', { json: [{ name: 'abcd' }, 5] });
    assert.deepEqual(items.json().details, [
      { location: 'body', field: '[0].name', message: 'name must be shorter than or equal to 3 characters' },
      { location: 'body', field: '[1]', message: 'Input should be an object' },
    ]);
  });
});
