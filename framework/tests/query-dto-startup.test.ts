import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  IsInt, IsOptional, IsString, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface,
} from 'class-validator';
import { BaseRouter, Get, router } from '../index';
import type { TrellisError } from '../framework-error';
import { Header, Query } from '../param';
import { TestClient } from '../testing';

function refused(routerClass: new () => object, code: string, details: Record<string, unknown>): void {
  assert.throws(() => new BaseRouter().includeRouter(routerClass as never), (error: TrellisError) => {
    assert.equal(error.code, code);
    assert.deepEqual({ ...error.details }, details);
    return true;
  });
}

class Untyped {
  page!: number;
}

class Filter {
  @IsString() name!: string;
}

interface Shape { page: number }

describe('@Query() / @Header() classes refused at startup', () => {
  it('a parameter whose type is not a class: TRELLIS_ERR_PARAM_CLASS', () => {
    class Scalar extends router('/s') {
      @Get() list(@Query() page: string) { return page; }
    }
    refused(Scalar, 'TRELLIS_ERR_PARAM_CLASS', { handler: 'Scalar.list', decorator: 'Query', parameter: 0, type: 'String' });
    class Shaped extends router('/i') {
      @Get() list(@Header() headers: Shape) { return headers; }
    }
    refused(Shaped, 'TRELLIS_ERR_PARAM_CLASS', { handler: 'Shaped.list', decorator: 'Header', parameter: 0, type: 'Object' });
  });

  it('a class without class-validator rules: TRELLIS_ERR_PARAM_CLASS_UNVALIDATED naming handler and class', () => {
    class Bare extends router('/b') {
      @Get() list(@Query() query: Untyped) { return query; }
    }
    refused(Bare, 'TRELLIS_ERR_PARAM_CLASS_UNVALIDATED', { handler: 'Bare.list', location: 'query', model: 'Untyped' });
  });

  it('a nested object property: TRELLIS_ERR_PARAM_CLASS_PROPERTY (query strings are flat)', () => {
    class WithNested {
      @ValidateNested() filter!: Filter;
    }
    class Typed {
      @IsOptional() filter?: Filter;
    }
    class Nested extends router('/n') {
      @Get() list(@Query() query: WithNested) { return query; }
    }
    class NestedType extends router('/t') {
      @Get() list(@Query() query: Typed) { return query; }
    }
    const reason = 'is an object, and query strings and headers are flat: declare its fields on the class itself';
    refused(Nested, 'TRELLIS_ERR_PARAM_CLASS_PROPERTY', { handler: 'Nested.list', location: 'query', property: 'WithNested.filter', reason });
    refused(NestedType, 'TRELLIS_ERR_PARAM_CLASS_PROPERTY', { handler: 'NestedType.list', location: 'query', property: 'Typed.filter', reason });
  });

  it('an async rule, which validateSync would skip: TRELLIS_ERR_PARAM_CLASS_PROPERTY', () => {
    @ValidatorConstraint({ name: 'isFree', async: true })
    class IsFree implements ValidatorConstraintInterface {
      async validate(value: unknown) { return value !== 'taken'; }
    }
    class Lookup {
      @Validate(IsFree) name!: string;
    }
    class Async extends router('/a') {
      @Get() list(@Query() query: Lookup) { return query; }
    }
    assert.throws(() => new BaseRouter().includeRouter(new Async()), (error: TrellisError) =>
      error.code === 'TRELLIS_ERR_PARAM_CLASS_PROPERTY' && error.details.property === 'Lookup.name' && error.details.reason === 'has the async constraint isFree, which a query or header class cannot run: use synchronous rules without groups');
  });

  it('validation groups, which never apply to a query: TRELLIS_ERR_PARAM_CLASS_PROPERTY', () => {
    class Grouped {
      @IsString({ groups: ['admin'] }) name!: string;
    }
    class Groups extends router('/g') {
      @Get() list(@Query() query: Grouped) { return query; }
    }
    refused(Groups, 'TRELLIS_ERR_PARAM_CLASS_PROPERTY', {
      handler: 'Groups.list', location: 'query', property: 'Grouped.name',
      reason: 'has validation groups, which a query or header class cannot run: use synchronous rules without groups',
    });
  });

  it('a property named constructor: TRELLIS_ERR_PARAM_CLASS_PROPERTY', () => {
    class Named {
      @IsString() name!: string;
    }
    // TypeScript refuses a decorated `constructor` field: decorated as the compiled class would be.
    for (const decorator of [IsOptional(), IsString()]) decorator(Named.prototype, 'constructor');
    class Ctor extends router('/c') {
      @Get() list(@Query() query: Named) { return query; }
    }
    assert.throws(() => new BaseRouter().includeRouter(new Ctor()), (error: TrellisError) =>
      error.code === 'TRELLIS_ERR_PARAM_CLASS_PROPERTY' && error.details.property === 'Named.constructor');
  });
});

describe('@Query() class with a custom synchronous rule', () => {
  @ValidatorConstraint({ name: 'isSlug' })
  class IsSlug implements ValidatorConstraintInterface {
    validate(value: unknown) { return typeof value === 'string' && /^[a-z-]+$/.test(value); }
    defaultMessage() { return '$property must be a slug'; }
  }
  class BySlug {
    @Validate(IsSlug) slug!: string;
    @IsOptional() @IsInt() page?: number;
  }
  class Slugs extends router('/slugs') {
    @Get() find(@Query() query: BySlug) { return { query, isBySlug: query instanceof BySlug }; }
  }
  const client = new TestClient(new BaseRouter().includeRouter(new Slugs()));

  it('runs it with class-validator, in the same envelope', async () => {
    assert.deepEqual((await client.get('/slugs?slug=a-b&page=2')).json(), { query: { slug: 'a-b', page: 2 }, isBySlug: true });
    const res = await client.get('/slugs?slug=A_B&page=x');
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [
      { location: 'query', field: 'slug', message: 'slug must be a slug' },
      { location: 'query', field: 'page', message: 'Input should be a valid integer' },
    ]);
  });
});
