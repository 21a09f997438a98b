import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, router } from '../index';
import { TrellisError } from '../framework-error';
import { Header, Int, Path, Query } from '../param';
import { TestClient } from '../testing';

class Items extends router('/items') {
  @Get('/{item_id}') one(@Path('item_id') id: number) { return { id, type: typeof id }; }
  @Get('/int/{item_id}') int(@Path('item_id', { type: Int }) id: number) { return { id }; }
  @Get('/int2/{item_id}') int2(@Path('item_id', { type: 'integer' }) id: number) { return { id }; }
  @Get('/flag/{on}') flag(@Path('on') on: boolean) { return { on }; }
  @Get('/name/{name}') name(@Path('name') name: string) { return { name }; }
  @Get('/{a}/and/{b}') two(@Path('a') a: string, @Path('b', { type: Int }) b: number) { return { a, b }; }
}

class Listing extends router('/list') {
  @Get()
  list(
    @Query('page', { type: Int, default: 1 }) page: number,
    @Query('limit', { type: Int, default: 10 }) limit: number,
    @Query('category', { default: null }) category: string | null,
  ) {
    return { page, limit, category };
  }

  @Get('/search')
  search(
    @Query('q') q: string,
    @Query('min_price', { default: null }) minPrice: number,
    @Query('in_stock', { default: false }) inStock: boolean,
    @Query('tag', { default: [] }) tags: string[],
    @Query('ids', { type: [Int], default: [] }) ids: number[],
  ) {
    return { q, minPrice, inStock, tags, ids };
  }
}

class Headers extends router('/headers') {
  @Get()
  read(
    @Header('User-Agent', { default: 'unknown' }) agent: string,
    @Header('X-Token') token: string,
    @Header('X-Retries', { type: Int, default: 0 }) retries: number,
  ) {
    return { agent, token, retries };
  }
}

const client = new TestClient(new BaseRouter().includeRouter(new Items()).includeRouter(new Listing()).includeRouter(new Headers()));

describe('path parameters', () => {
  it('converts to the annotated type', async () => {
    assert.deepEqual((await client.get('/items/42')).json(), { id: 42, type: 'number' });
    assert.deepEqual((await client.get('/items/1.5')).json(), { id: 1.5, type: 'number' });
    assert.deepEqual((await client.get('/items/flag/true')).json(), { on: true });
    assert.deepEqual((await client.get('/items/flag/0')).json(), { on: false });
    assert.deepEqual((await client.get('/items/name/caf%C3%A9%20au%20lait')).json(), { name: 'café au lait' });
  });

  it('takes several parameters in one path', async () => {
    assert.deepEqual((await client.get('/items/x/and/3')).json(), { a: 'x', b: 3 });
  });

  it('rejects what is not of the type with the 422 envelope', async () => {
    for (const [url, field, message] of [
      ['/items/abc', 'item_id', 'Input should be a valid number'],
      ['/items/1e', 'item_id', 'Input should be a valid number'],
      ['/items/int/1.5', 'item_id', 'Input should be a valid integer'],
      ['/items/int2/1.5', 'item_id', 'Input should be a valid integer'],
      ['/items/int/99999999999999999999', 'item_id', 'Input should be a valid integer'],
      ['/items/flag/maybe', 'on', 'Input should be a valid boolean'],
    ]) {
      const res = await client.get(url);
      assert.equal(res.status, 422, url);
      assert.deepEqual(res.json(), { error: 'Validation failed', details: [{ location: 'path', field, message }] }, url);
    }
  });

  it('fails at startup when @Path names no {param} of the route', () => {
    class Wrong extends router('/w') {
      @Get('/{id}') one(@Path('ident') id: number) { return id; }
    }
    assert.throws(() => new BaseRouter().includeRouter(new Wrong()), (e: TrellisError) => e.code === 'TRELLIS_ERR_PARAM_UNDECLARED');
  });

  it('fails at startup for malformed paths', () => {
    class Bad extends router('/b') {
      @Get('/{id') one() { return 1; }
    }
    class Twice extends router('/t/{id}') {
      @Get('/{id}') one() { return 1; }
    }
    assert.throws(() => new BaseRouter().includeRouter(new Bad()), (e: TrellisError) => e.code === 'TRELLIS_ERR_INVALID_PATH');
    assert.throws(() => new BaseRouter().includeRouter(new Twice()), /appears twice/);
  });
});

describe('query parameters', () => {
  it('applies defaults, null for `default: null`', async () => {
    assert.deepEqual((await client.get('/list')).json(), { page: 1, limit: 10, category: null });
    assert.deepEqual((await client.get('/list?page=3&category=books')).json(), { page: 3, limit: 10, category: 'books' });
  });

  it('converts, including floats, booleans and repeated keys into arrays', async () => {
    const res = await client.get('/list/search', { query: { q: 'lamp', min_price: '1.5', in_stock: 'yes', tag: ['a', 'b'], ids: ['1', '2'] } });
    assert.deepEqual(res.json(), { q: 'lamp', minPrice: 1.5, inStock: true, tags: ['a', 'b'], ids: [1, 2] });
    assert.deepEqual((await client.get('/list/search?q=x&tag=solo')).json().tags, ['solo']);
  });

  it('treats a missing required value as a validation failure and reports every failure at once', async () => {
    const res = await client.get('/list/search?min_price=cheap&ids=1&ids=x');
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [
      { location: 'query', field: 'q', message: 'Field required' },
      { location: 'query', field: 'min_price', message: 'Input should be a valid number' },
      { location: 'query', field: 'ids[1]', message: 'Input should be a valid integer' },
    ]);
  });

  it('rejects non-integers for integer parameters', async () => {
    const res = await client.get('/list?page=1.5');
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [{ location: 'query', field: 'page', message: 'Input should be a valid integer' }]);
  });
});

describe('header parameters', () => {
  it('reads headers by HTTP name, case-insensitively, with defaults and conversion', async () => {
    const res = await client.get('/headers', { headers: { 'x-TOKEN': 'abc', 'User-Agent': 'tests/1.0', 'X-Retries': '2' } });
    assert.deepEqual(res.json(), { agent: 'tests/1.0', token: 'abc', retries: 2 });
  });

  it('treats a missing required header as a validation failure', async () => {
    const res = await client.get('/headers', { headers: { 'user-agent': '' } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json(), { error: 'Validation failed', details: [{ location: 'header', field: 'x-token', message: 'Field required' }] });
  });
});

describe('types of nullable parameters', () => {
  // `x: number | null` records the design type Object: the default's type decides, in the pipeline and the docs alike.
  class Prices extends router('/prices') {
    @Get()
    list(
      @Query('min', { default: 0 }) min: number | null,
      @Query('exact', { default: false }) exact: boolean | null,
      @Query('max', { type: Number, default: null }) max: number | null,
      @Query('label', { default: null }) label: string | null,
    ) {
      return { min, exact, max, label };
    }
  }
  const app = new BaseRouter().includeRouter(new Prices());

  it('converts by the default when the design type is Object', async () => {
    const res = await new TestClient(app).get('/prices?min=1.5&exact=true&max=9&label=x');
    assert.deepEqual(res.json(), { min: 1.5, exact: true, max: 9, label: 'x' });
    assert.equal((await new TestClient(app).get('/prices?min=cheap')).status, 422);
  });

  it('documents the same types', () => {
    const params = (app.openapi().paths['/prices'] as unknown as { get: { parameters: Array<{ name: string; schema: { type: string } }> } }).get.parameters;
    assert.deepEqual(Object.fromEntries(params.map((p) => [p.name, p.schema.type])), { min: 'number', exact: 'boolean', max: 'number', label: 'string' });
  });
});
