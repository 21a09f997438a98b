import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { BaseRouter, Get, router } from '../index';
import { TrellisError } from '../framework-error';
import { Header, Int, Path, Query } from '../param';
import { TestClient } from '../testing';

class Catalogue extends router('/catalogue') {
  @Get()
  list(
    @Query('page', { type: Int, default: 1, minimum: 1 }) page: number,
    @Query('limit', { type: Int, default: 10, minimum: 1, maximum: 100 }) limit: number,
    @Query('sort', { default: 'name', enum: ['name', 'price'] }) sort: string,
    @Query('size', { type: Int, default: null, enum: [10, 20, 50] }) size: number | null,
    @Query('min_price', { type: Number, default: null, minimum: 0.5 }) minPrice: number | null,
  ) {
    return { page, limit, sort, size, minPrice };
  }

  @Get('/codes/{code}')
  code(@Path('code', { pattern: '^[A-Z]{3}$' }) code: string, @Query('near', { default: null, pattern: 'x[0-9]' }) near: string | null) {
    return { code, near };
  }

  @Get('/tagged')
  tagged(
    @Header('X-Tag', { minLength: 2, maxLength: 5 }) tag: string,
    @Header('X-Slug', { default: null, maxLength: 20, pattern: '^(a+)+$' }) slug: string | null,
  ) {
    return { tag, slug };
  }

  @Get('/many')
  many(
    @Query('id', { type: [Int], default: [], minimum: 1 }) ids: number[],
    @Query('field', { type: ['string'], default: ['name'], enum: ['name', 'price', 'tags'] }) fields: string[],
  ) {
    return { ids, fields };
  }
}

const client = new TestClient(new BaseRouter().includeRouter(Catalogue));

function failure(location: string, field: string, message: string) {
  return { error: 'Validation failed', details: [{ location, field, message }] };
}

describe('parameter constraints in requests', () => {
  it('minimum and maximum: accepted at the bound, a 422 past it', async () => {
    const ok = await client.get('/catalogue', { query: { page: '1', limit: '100', min_price: '0.5' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { page: 1, limit: 100, sort: 'name', size: null, minPrice: 0.5 });
    const low = await client.get('/catalogue', { query: { page: '0' } });
    assert.equal(low.status, 422);
    assert.deepEqual(low.json(), failure('query', 'page', 'Input should be greater than or equal to 1'));
    const high = await client.get('/catalogue', { query: { limit: '101' } });
    assert.equal(high.status, 422);
    assert.deepEqual(high.json(), failure('query', 'limit', 'Input should be less than or equal to 100'));
    assert.deepEqual((await client.get('/catalogue', { query: { min_price: '0.49' } })).json(),
      failure('query', 'min_price', 'Input should be greater than or equal to 0.5'));
  });

  it('enum: only the listed values, strings and integers', async () => {
    assert.equal((await client.get('/catalogue', { query: { sort: 'price', size: '20' } })).json().size, 20);
    const sort = await client.get('/catalogue', { query: { sort: 'colour' } });
    assert.equal(sort.status, 422);
    assert.deepEqual(sort.json(), failure('query', 'sort', "Input should be 'name' or 'price'"));
    // Compared exactly: no case folding, no trimming.
    assert.equal((await client.get('/catalogue', { query: { sort: 'Name' } })).status, 422);
    assert.deepEqual((await client.get('/catalogue', { query: { size: '30' } })).json(),
      failure('query', 'size', 'Input should be 10, 20 or 50'));
  });

  it('pattern: searched in the value (anchor it to match the whole)', async () => {
    assert.deepEqual((await client.get('/catalogue/codes/ABC', { query: { near: 'ax1b' } })).json(), { code: 'ABC', near: 'ax1b' });
    const code = await client.get('/catalogue/codes/ABCD');
    assert.equal(code.status, 422);
    assert.deepEqual(code.json(), failure('path', 'code', "String should match pattern '^[A-Z]{3}$'"));
    assert.deepEqual((await client.get('/catalogue/codes/ABC', { query: { near: 'xy' } })).json(),
      failure('query', 'near', "String should match pattern 'x[0-9]'"));
  });

  it('minLength and maxLength: counted in characters, a surrogate pair as one', async () => {
    for (const tag of ['ab', 'abcde']) {
      assert.deepEqual((await client.get('/catalogue/tagged', { headers: { 'x-tag': tag } })).json(), { tag, slug: null });
    }
    assert.deepEqual((await client.get('/catalogue/tagged', { headers: { 'x-tag': 'a' } })).json(),
      failure('header', 'x-tag', 'String should have at least 2 characters'));
    assert.deepEqual((await client.get('/catalogue/tagged', { headers: { 'x-tag': 'abcdef' } })).json(),
      failure('header', 'x-tag', 'String should have at most 5 characters'));
    // Node's client sends header values as latin1: a non-ASCII value goes through a query or path instead.
    class Emoji extends router('/emoji') {
      @Get() one(@Query('e', { minLength: 2, maxLength: 2 }) e: string) { return { e }; }
    }
    const emoji = new TestClient(new BaseRouter().includeRouter(Emoji));
    assert.equal((await emoji.get('/emoji', { query: { e: '😀😀' } })).status, 200);
    assert.equal((await emoji.get('/emoji', { query: { e: '😀' } })).status, 422);
  });

  it('reports every broken parameter in one 422, with the conversion errors', async () => {
    const res = await client.get('/catalogue', { query: { page: 'abc', limit: '0', sort: 'x' } });
    assert.deepEqual(res.json().details, [
      { location: 'query', field: 'page', message: 'Input should be a valid integer' },
      { location: 'query', field: 'limit', message: 'Input should be greater than or equal to 1' },
      { location: 'query', field: 'sort', message: "Input should be 'name' or 'price'" },
    ]);
  });

  it('checks each item of an array parameter', async () => {
    assert.deepEqual((await client.get('/catalogue/many?id=1&id=7&field=tags&field=price')).json(), { ids: [1, 7], fields: ['tags', 'price'] });
    const res = await client.get('/catalogue/many?id=1&id=0&id=x&field=name&field=colour');
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [
      { location: 'query', field: 'id[1]', message: 'Input should be greater than or equal to 1' },
      { location: 'query', field: 'id[2]', message: 'Input should be a valid integer' },
      { location: 'query', field: 'field[1]', message: "Input should be 'name', 'price' or 'tags'" },
    ]);
  });

  it('gives an absent value its default without checking it again (null included)', async () => {
    assert.deepEqual((await client.get('/catalogue')).json(), { page: 1, limit: 10, sort: 'name', size: null, minPrice: null });
    assert.deepEqual((await client.get('/catalogue/many')).json(), { ids: [], fields: ['name'] });
  });

  it('matches a pattern only on a value within maxLength: a 16 KiB header against (a+)+ answers at once', async () => {
    const started = process.hrtime.bigint();
    const res = await client.get('/catalogue/tagged', { headers: { 'x-tag': 'ab', 'x-slug': 'a'.repeat(16_000) + '!' } });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.deepEqual(res.json(), failure('header', 'x-slug', 'String should have at most 20 characters'));
    assert.ok(ms < 1000, `${ms} ms`);
    // Within the bound the pattern runs, and 20 characters of backtracking stay cheap.
    const near = await client.get('/catalogue/tagged', { headers: { 'x-tag': 'ab', 'x-slug': 'a'.repeat(19) + '!' } });
    assert.deepEqual(near.json(), failure('header', 'x-slug', "String should match pattern '^(a+)+$'"));
  });

  it('builds no RegExp per request: the pattern is compiled once per route', async () => {
    class Codes extends router('/codes') {
      @Get('/{code}') one(@Path('code', { pattern: '^[a-z]+$' }) code: string) { return { code }; }
    }
    const codes = new TestClient(new BaseRouter().includeRouter(Codes));
    await codes.get('/codes/warm');
    const Original = RegExp;
    // The test client (light-my-request) builds RegExps of its own per response: count the pattern's only.
    let built = 0;
    const count = (args: unknown[]) => {
      if (String(args[0]) === '^[a-z]+$') built++;
    };
    globalThis.RegExp = new Proxy(Original, {
      construct(target, args) {
        count(args);
        return Reflect.construct(target, args);
      },
      apply(target, self, args) {
        count(args);
        return Reflect.apply(target, self, args);
      },
    });
    try {
      for (let i = 0; i < 20; i++) assert.equal((await codes.get(i % 2 ? '/codes/abc' : '/codes/ABC')).status, i % 2 ? 200 : 422);
    } finally {
      globalThis.RegExp = Original;
    }
    assert.equal(built, 0);
  });
});

describe('parameter constraints when the decorator runs', () => {
  function refusal(define: () => unknown, details: Record<string, unknown>): void {
    assert.throws(define, (error: unknown) => {
      assert.ok(error instanceof TrellisError);
      assert.equal(error.code, 'TRELLIS_ERR_PARAM_CONSTRAINT');
      assert.deepEqual(error.details, details);
      return true;
    });
  }

  it('refuses a limit that does not fit the type', () => {
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('q', { minimum: 1 }) q: string) { return q; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'q', option: 'minimum', reason: 'it applies to numbers, and the parameter is a string' });
    refusal(() => {
      class R extends router('/r') { @Get('/{n}') m(@Path('n', { type: Int, maxLength: 3 }) n: number) { return n; } }
      return R;
    }, { handler: 'R.m', location: 'path', parameter: 'n', option: 'maxLength', reason: 'it applies to strings, and the parameter is a integer' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Header('X-On', { pattern: '^t' }) on: boolean) { return on; } }
      return R;
    }, { handler: 'R.m', location: 'header', parameter: 'x-on', option: 'pattern', reason: 'it applies to strings, and the parameter is a boolean' });
  });

  it('refuses a pattern that is not a valid regular expression', () => {
    assert.throws(() => {
      class R extends router('/r') { @Get() m(@Query('q', { pattern: '([a-z]' }) q: string) { return q; } }
      return R;
    }, (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_PARAM_CONSTRAINT'
      && error.details.option === 'pattern' && /^"\(\[a-z\]" is not a valid regular expression \(/.test(String(error.details.reason)));
    // Read with the `u` flag, as JSON Schema validators read it: a needless escape is an error there.
    assert.throws(() => {
      class R extends router('/r') { @Get() m(@Query('q', { pattern: '\\-' }) q: string) { return q; } }
      return R;
    }, /invalid pattern/);
  });

  it('refuses an empty enum, and enum values of another type than the parameter', () => {
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('sort', { enum: [] }) sort: string) { return sort; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'sort', option: 'enum', reason: '[] is not a non-empty list of values' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('size', { type: Int, enum: [10, '20'] }) size: number) { return size; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'size', option: 'enum', reason: '"20" is not a integer, the parameter\'s type' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('size', { type: Int, enum: [1.5] }) size: number) { return size; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'size', option: 'enum', reason: '1.5 is not a integer, the parameter\'s type' });
  });

  it('refuses bounds that are not numbers or cross each other', () => {
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('n', { minimum: 10, maximum: 1 }) n: number) { return n; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'n', option: 'minimum', reason: '10 is above maximum 1' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('n', { minimum: NaN }) n: number) { return n; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'n', option: 'minimum', reason: 'NaN is not a finite number' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('s', { minLength: 1.5 }) s: string) { return s; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 's', option: 'minLength', reason: '1.5 is not a whole number from 0' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('s', { minLength: 5, maxLength: 2 }) s: string) { return s; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 's', option: 'minLength', reason: '5 is above maxLength 2' });
  });

  it('refuses a default the constraints refuse, an array default item by item', () => {
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('page', { type: Int, default: 0, minimum: 1 }) page: number) { return page; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'page', option: 'default', reason: '0: Input should be greater than or equal to 1' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('sort', { default: 'date', enum: ['name', 'price'] }) sort: string) { return sort; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'sort', option: 'default', reason: '"date": Input should be \'name\' or \'price\'' });
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('id', { type: [Int], default: [1, 0], minimum: 1 }) ids: number[]) { return ids; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'id', option: 'default', reason: '0: Input should be greater than or equal to 1' });
    // At the bound, and `null` (optional), are fine.
    class Fine extends router('/fine') {
      @Get() m(@Query('page', { type: Int, default: 1, minimum: 1 }) page: number, @Query('s', { default: null, minLength: 3 }) s: string | null) {
        return { page, s };
      }
    }
    assert.ok(Fine);
  });

  it('reads the type from the annotation when no `type` is given', () => {
    refusal(() => {
      class R extends router('/r') { @Get() m(@Query('ok', { enum: ['yes'] }) ok: boolean) { return ok; } }
      return R;
    }, { handler: 'R.m', location: 'query', parameter: 'ok', option: 'enum', reason: '"yes" is not a boolean, the parameter\'s type' });
  });
});

describe('parameter constraints in the OpenAPI document', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const document: any = new BaseRouter().includeRouter(Catalogue).openapi();
  const parameters = (path: string) => document.paths[path].get.parameters;

  it('writes each keyword into the parameter schema, enum values typed as the parameter', () => {
    assert.deepEqual(parameters('/catalogue'), [
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['name', 'price'], default: 'name' } },
      { name: 'size', in: 'query', required: false, schema: { type: 'integer', enum: [10, 20, 50] } },
      { name: 'min_price', in: 'query', required: false, schema: { type: 'number', minimum: 0.5 } },
    ]);
    assert.deepEqual(parameters('/catalogue/codes/{code}'), [
      { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z]{3}$' } },
      { name: 'near', in: 'query', required: false, schema: { type: 'string', pattern: 'x[0-9]' } },
    ]);
    assert.deepEqual(parameters('/catalogue/tagged'), [
      { name: 'X-Tag', in: 'header', required: true, schema: { type: 'string', minLength: 2, maxLength: 5 } },
      { name: 'X-Slug', in: 'header', required: false, schema: { type: 'string', pattern: '^(a+)+$', maxLength: 20 } },
    ]);
  });

  it('puts an array parameter\'s constraints on its items', () => {
    assert.deepEqual(parameters('/catalogue/many'), [
      { name: 'id', in: 'query', required: false, schema: { type: 'array', items: { type: 'integer', minimum: 1 }, default: [] } },
      { name: 'field', in: 'query', required: false, schema: { type: 'array', items: { type: 'string', enum: ['name', 'price', 'tags'] }, default: ['name'] } },
    ]);
  });

  it('is a valid document', async () => {
    await SwaggerParser.validate(structuredClone(document));
  });

  it('says what the server does: a JSON Schema validator accepts exactly the values the server accepts', async () => {
    const ajv = new Ajv2020({ strict: false });
    const cases: Array<[string, string, string]> = [
      ['/catalogue', 'page', '1'], ['/catalogue', 'page', '0'], ['/catalogue', 'limit', '100'], ['/catalogue', 'limit', '101'],
      ['/catalogue', 'sort', 'price'], ['/catalogue', 'sort', 'Price'], ['/catalogue', 'size', '50'], ['/catalogue', 'size', '51'],
      ['/catalogue', 'min_price', '0.5'], ['/catalogue', 'min_price', '0.4'],
      ['/catalogue/codes/ABC', 'near', 'ax1'], ['/catalogue/codes/ABC', 'near', 'a1x'], ['/catalogue/codes/ABC', 'near', 'x٣'],
    ];
    for (const [path, name, text] of cases) {
      const docPath = path.startsWith('/catalogue/codes') ? '/catalogue/codes/{code}' : path;
      const schema = parameters(docPath).find((p: { name: string }) => p.name === name).schema;
      const value = schema.type === 'string' ? text : Number(text);
      const served = (await client.get(path, { query: { [name]: text } })).status === 200;
      assert.equal(ajv.validate(schema, value), served, `${name}=${text}`);
    }
  });
});
