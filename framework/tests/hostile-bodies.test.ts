import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { BaseRouter, HTTPException, Post, router } from '../index';
import { RequestValidationError } from '../http-exception';
import { TrellisError } from '../framework-error';
import { Body, Req } from '../param';
import type { Request } from '../request';
import { TestClient } from '../testing';

const json = { 'content-type': 'application/json' };
// `obj` is the plain object class-transformer was handed: its key count shows what reached per-key work.
// Only `seen` reaches it: undeclared keys are dropped, and declared plain fields go around it.
const keysSeen = ({ obj }: { obj: object }) => Object.keys(obj).length;

class Child {
  @IsString() name!: string;
  @IsOptional() @IsInt() @Transform(keysSeen) seen?: number;
}

class Note {
  @IsString() title!: string;
  @IsOptional() @IsInt() @Transform(keysSeen) seen?: number;
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
  @IsOptional() @IsArray() tags?: unknown[];
  @IsOptional() @ValidateNested() @Type(() => Child) child?: Child;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Child) children?: Child[];
}

class Item {
  @IsString() name!: string;
}

class Notes extends router('/notes') {
  @Post() create(@Body() note: Note) { return [{ ...note, isNote: note instanceof Note, childIsChild: note.child instanceof Child }, 201]; }
  @Post('/batch') batch(@Body({ type: Item }) items: Item[]) { return { count: items.length }; }
  @Post('/small-batch') small(@Body({ type: Item, maxItems: 2 }) items: Item[]) { return { count: items.length }; }
  @Post('/raw') async raw(@Req() request: Request) { return { got: await request.json() }; }
  @Post('/fail') fail() { throw new RequestValidationError(longDetails); }
}

const longDetails = Array.from({ length: 150 }, (_, i) => ({
  location: 'body' as const, field: `f${i}` + '\u0001'.repeat(100_000), message: '"'.repeat(100_000),
}));
const client = new TestClient(new BaseRouter().includeRouter(Notes));
const withKeys = (count: number, head = '"title":"a"') =>
  `{${head}${Array.from({ length: count }, (_, i) => `,"k${i}":0`).join('')}}`;

describe('a JSON body with many keys', () => {
  it('hands class-transformer only the declared properties', async () => {
    const res = await client.post('/notes', { body: withKeys(900, '"title":"a","seen":0'), headers: json });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { title: 'a', seen: 1, isNote: true, childIsChild: false });
  });

  it('prunes nested DTOs too, and keeps plain JSON fields as sent', async () => {
    const meta = { a: { b: [1, { c: 'd' }] }, e: null };
    const body = JSON.stringify({
      title: 'a', meta, tags: [[1], { x: 2 }], extra: 1,
      child: { name: 'c', seen: 0, junk: 1, more: 2 }, children: [{ name: 'd', seen: 0, junk: 1 }, 'no'],
    });
    const res = await client.post('/notes', { body, headers: json });
    assert.equal(res.status, 422); // 'no' is not a Child
    const ok = await client.post('/notes', { body: body.replace(', "no"', '').replace(',"no"', ''), headers: json });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.json(), {
      title: 'a', meta, tags: [[1], { x: 2 }], child: { name: 'c', seen: 1 }, children: [{ name: 'd', seen: 1 }],
      isNote: true, childIsChild: true,
    });
  });

  it('answers 413 when one object has more than 1,000 keys, wherever it is', async () => {
    for (const body of [withKeys(1000), `{"title":"a","meta":${withKeys(1000)}}`, `[${withKeys(1000)}]`]) {
      const res = await client.post('/notes', { body, headers: json });
      assert.equal(res.status, 413);
      assert.deepEqual(res.json(), { error: 'A JSON object of the body has more than 1000 keys' });
    }
    const raw = await client.post('/notes/raw', { body: withKeys(1000), headers: json });
    assert.equal(raw.status, 413);
  });

  it('counts keys per object, not colons in strings nor keys of sibling objects', async () => {
    const siblings = `{"title":"a","meta":{"x":${withKeys(600)},"y":${withKeys(600)}}}`;
    assert.equal((await client.post('/notes', { body: siblings, headers: json })).status, 201);
    const colons = `{"title":"${':'.repeat(5000)}","tags":["a:b","c\\":d"]}`;
    assert.equal((await client.post('/notes', { body: colons, headers: json })).status, 201);
    assert.equal((await client.post('/notes', { body: withKeys(998), headers: json })).status, 201);
  });

  it('takes its limit from AppOptions.maxObjectKeys, checked at startup', async () => {
    const small = new TestClient(new BaseRouter({ maxObjectKeys: 3 }).includeRouter(Notes));
    assert.equal((await small.post('/notes', { body: withKeys(2), headers: json })).status, 201);
    const res = await small.post('/notes', { body: withKeys(3), headers: json });
    assert.deepEqual([res.status, res.json()], [413, { error: 'A JSON object of the body has more than 3 keys' }]);
    for (const bad of [0, -1, 1.5, '10']) {
      assert.throws(() => new BaseRouter({ maxObjectKeys: bad as number }), (e: TrellisError) => e.code === 'TRELLIS_ERR_BODY_LIMIT');
    }
  });
});

describe('a JSON body made of many small objects and arrays', () => {
  const client = new TestClient(new BaseRouter().includeRouter(Notes));
  // 1 MiB of objects nested to the depth limit, under a key the DTO does not even declare: parsing them alone
  // blocked the event loop for 40-80 ms.
  const DEEP = '{"a":'.repeat(62) + '0' + '}'.repeat(62);
  const deep = `{"title":"a","n":[${Array(2_700).fill(DEEP).join(',')}]}`;

  it('is refused with 413 before it is parsed, above 100,000 objects and arrays', async () => {
    const res = await client.post('/notes', { body: deep, headers: json });
    assert.deepEqual([res.status, res.json()], [413, { error: 'The JSON body has more than 100000 objects and arrays' }]);
    // Cut short (malformed): still a 413, so the count came before the parse.
    assert.equal((await client.post('/notes', { body: deep.slice(0, -10), headers: json })).status, 413);
    const within = `{"title":"a","tags":[${Array(1_500).fill(DEEP).join(',')}]}`;
    assert.equal((await client.post('/notes', { body: within, headers: json })).status, 201);
  });

  it('takes its limit from AppOptions.maxJsonContainers, checked at startup', async () => {
    const small = new TestClient(new BaseRouter({ maxJsonContainers: 3 }).includeRouter(Notes));
    assert.equal((await small.post('/notes', { body: '{"title":"a","tags":[[]]}', headers: json })).status, 201);
    const res = await small.post('/notes', { body: '{"title":"a","tags":[[],[]]}', headers: json });
    assert.deepEqual([res.status, res.json()], [413, { error: 'The JSON body has more than 3 objects and arrays' }]);
    for (const bad of [0, -1, 1.5, '10']) {
      assert.throws(() => new BaseRouter({ maxJsonContainers: bad as number }), (e: TrellisError) => e.code === 'TRELLIS_ERR_BODY_LIMIT');
    }
  });
});

describe('an array body', () => {
  const items = (count: number, item = '{}') => `[${Array(count).fill(item).join(',')}]`;

  it('answers 413 above 1,000 items, before validating any', async () => {
    const res = await client.post('/notes/batch', { body: items(1001), headers: json });
    assert.deepEqual([res.status, res.json()], [413, { error: 'The body is an array of more than 1000 items' }]);
    // Refused before parsing: the same items with the closing bracket missing are a 413 too, not a 400.
    const unparsed = await client.post('/notes/batch', { body: items(1001).slice(0, -1), headers: json });
    assert.equal(unparsed.status, 413);
    const dto = await client.post('/notes', { body: items(1001), headers: json });
    assert.deepEqual([dto.status, dto.json()], [413, { error: 'The body is an array of more than 1000 items' }]);
    const ok = await client.post('/notes/batch', { body: items(1000, '{"name":"x"}'), headers: json });
    assert.deepEqual([ok.status, ok.json()], [200, { count: 1000 }]);
  });

  it('takes @Body({ maxItems }), checked at startup', async () => {
    assert.equal((await client.post('/notes/small-batch', { body: items(2, '{"name":"x"}'), headers: json })).status, 200);
    const res = await client.post('/notes/small-batch', { body: items(3, '{"name":"x"}'), headers: json });
    assert.deepEqual([res.status, res.json()], [413, { error: 'The body is an array of more than 2 items' }]);
    class Bad extends router('/bad') {
      @Post() take(@Body({ type: Item, maxItems: 0 }) items: Item[]) { return items; }
    }
    assert.throws(() => new TestClient(new BaseRouter().includeRouter(Bad)).post('/bad'), (e: TrellisError) => e.code === 'TRELLIS_ERR_BODY_LIMIT');
  });

  it('lists the first 100 failures of a 422 and counts the rest', async () => {
    const res = await client.post('/notes/batch', { body: items(1000), headers: json });
    assert.equal(res.status, 422);
    const body = res.json();
    assert.equal(body.details.length, 100);
    assert.deepEqual(body.details[99], { location: 'body', field: '[99].name', message: 'name must be a string' });
    assert.equal(body.omitted_details, 900);
  });
});

describe('a 422 body', () => {
  it('stays under 64 KiB, however long its fields and messages', async () => {
    const res = await client.post('/notes/fail');
    assert.equal(res.status, 422);
    assert.ok(res.body.length <= 64 * 1024, `${res.body.length} bytes`);
    const body = res.json();
    assert.equal(body.details[0].field.length, 200);
    assert.ok(body.details[0].field.endsWith('…'));
    assert.equal(body.details[0].message.length, 400);
    assert.equal(body.details.length + body.omitted_details, 150);
  });

  it('is unchanged for a few short details', () => {
    const error = new RequestValidationError([{ location: 'query', field: 'q', message: 'Field required' }]);
    assert.ok(error instanceof HTTPException);
    assert.deepEqual(error.extra, { details: [{ location: 'query', field: 'q', message: 'Field required' }] });
    assert.equal(error.omitted, 0);
  });
});

describe('a JSON body without Content-Type', () => {
  it('is a 415, like any other content type', async () => {
    const res = await client.post('/notes', { body: '{"title":"a"}' });
    assert.deepEqual([res.status, res.json()], [415, { error: 'Content-Type must be application/json' }]);
    const chunked = await client.post('/notes', { body: '', headers: { 'transfer-encoding': 'chunked' } });
    assert.equal(chunked.status, 415);
  });

  it('is a missing body (422 Field required) when there is no body either', async () => {
    for (const headers of [{}, { 'content-length': '0' }] as Array<Record<string, string>>) {
      const res = await client.post('/notes', { headers });
      assert.equal(res.status, 422);
      assert.deepEqual(res.json().details, [{ location: 'body', field: '', message: 'Field required' }]);
    }
  });
});
