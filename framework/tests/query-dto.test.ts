import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDate, IsEnum, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min,
} from 'class-validator';
import { BaseRouter, Get, Post, router } from '../index';
import { Body, Path, Query } from '../param';
import { TestClient } from '../testing';

enum Sort { Name = 'name', Price = 'price' }
enum Level { Low = 1, High = 2 }

class ListQuery {
  @IsInt() @Min(1) @Max(100) limit = 20;
  @IsOptional() @IsString() @MaxLength(20) @Matches(/^[a-z ]+$/) q?: string;
  @IsOptional() @IsBoolean() done?: boolean;
  @IsOptional() @IsDate() since?: Date;
  @IsEnum(Sort) sort: Sort = Sort.Name;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMaxSize(3) tag?: string[];
  @IsOptional() @IsInt({ each: true }) @Min(1, { each: true }) ids?: number[];
  @IsOptional() @IsNumber() price?: number;
}

class Needed {
  @IsString() name!: string;
  @IsIn(['a', 'b']) pick!: string;
}

class TaskIn {
  @IsString() title!: string;
}

class Tasks extends router('/tasks') {
  @Get() list(@Query() query: ListQuery) {
    return { query, isListQuery: query instanceof ListQuery, since: query.since instanceof Date ? query.since.toISOString() : null };
  }
  @Get('/needed') needed(@Query({ type: Needed }) query: Needed) { return query; }
  @Post('/{id}') mixed(@Path('id') id: number, @Query('verbose', { default: false }) verbose: boolean, @Query() query: Needed, @Body() body: TaskIn) {
    return { id, verbose, query, body };
  }
}

const client = new TestClient(new BaseRouter().includeRouter(new Tasks()));

async function details(url: string) {
  const res = await client.get(url);
  assert.equal(res.status, 422, url);
  assert.equal(res.json().error, 'Validation failed');
  return res.json().details;
}

describe('@Query() class: conversion', () => {
  it('keeps the class defaults when keys are absent, and leaves optional properties undefined', async () => {
    const res = await client.get('/tasks');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { query: { limit: 20, sort: 'name' }, isListQuery: true, since: null });
  });

  it('converts each property by its declared type', async () => {
    const res = await client.get('/tasks?limit=5&q=lamp&done=true&since=2024-05-01T10:30:00%2B02:00&sort=price&level=2&price=9.5');
    assert.deepEqual(res.json(), {
      query: { limit: 5, q: 'lamp', done: true, since: '2024-05-01T08:30:00.000Z', sort: 'price', level: 2, price: 9.5 },
      isListQuery: true,
      since: '2024-05-01T08:30:00.000Z',
    });
  });

  it('reads booleans as true/false/1/0 (and yes/no/on/off, as named @Query values)', async () => {
    for (const [text, value] of [['true', true], ['1', true], ['FALSE', false], ['0', false], ['no', false]] as const) {
      assert.equal((await client.get(`/tasks?done=${text}`)).json().query.done, value, text);
    }
  });

  it('reads dates as ISO 8601: a date alone is midnight UTC, a time without offset is UTC', async () => {
    assert.equal((await client.get('/tasks?since=2024-02-29')).json().since, '2024-02-29T00:00:00.000Z');
    assert.equal((await client.get('/tasks?since=2024-02-29T23:59')).json().since, '2024-02-29T23:59:00.000Z');
    // An unencoded + decodes to a space: read as the offset's sign.
    assert.equal((await client.get('/tasks?since=2024-05-01T10:30:00+02:00')).json().since, '2024-05-01T08:30:00.000Z');
  });

  it('collects repeated keys into arrays, a single key into an array of one', async () => {
    assert.deepEqual((await client.get('/tasks?tag=a&tag=b&ids=1&ids=2')).json().query, { limit: 20, sort: 'name', tag: ['a', 'b'], ids: [1, 2] });
    assert.deepEqual((await client.get('/tasks?tag=solo')).json().query.tag, ['solo']);
  });

  it('takes the last of repeated keys for a property that is not an array', async () => {
    assert.equal((await client.get('/tasks?limit=3&limit=4')).json().query.limit, 4);
  });

  it('ignores keys the class does not declare', async () => {
    const res = await client.get('/tasks?unknown=1&limit=2&other=x');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json().query, { limit: 2, sort: 'name' });
  });
});

describe('@Query() class: 422 details', () => {
  it('lists conversion failures and broken rules together, in the class\'s property order', async () => {
    assert.deepEqual(await details('/tasks?q=UPPER&limit=x&sort=date&ids=0&ids=y'), [
      { location: 'query', field: 'limit', message: 'Input should be a valid integer' },
      { location: 'query', field: 'q', message: 'q must match /^[a-z ]+$/ regular expression' },
      { location: 'query', field: 'sort', message: 'sort must be one of the following values: name, price' },
      { location: 'query', field: 'ids[1]', message: 'Input should be a valid integer' },
    ]);
  });

  it('names text that does not convert, with the messages of named @Query values', async () => {
    assert.deepEqual(await details('/tasks?limit=1.5&done=maybe&since=2023-02-29&price=cheap&level=x'), [
      { location: 'query', field: 'limit', message: 'Input should be a valid integer' },
      { location: 'query', field: 'done', message: 'Input should be a valid boolean' },
      { location: 'query', field: 'since', message: 'Input should be a valid datetime' },
      { location: 'query', field: 'level', message: 'Input should be a valid number' },
      { location: 'query', field: 'price', message: 'Input should be a valid number' },
    ]);
  });

  it('names each array item that does not convert', async () => {
    assert.deepEqual(await details('/tasks?ids=1&ids=x&ids=2.5'), [
      { location: 'query', field: 'ids[1]', message: 'Input should be a valid integer' },
      { location: 'query', field: 'ids[2]', message: 'Input should be a valid integer' },
    ]);
  });

  it('gives the class-validator messages of converted values that break a rule', async () => {
    assert.deepEqual(await details('/tasks?limit=500&q=UPPER&sort=date&level=3&tag=a&tag=b&tag=c&tag=d&ids=0'), [
      { location: 'query', field: 'limit', message: 'limit must not be greater than 100' },
      { location: 'query', field: 'q', message: 'q must match /^[a-z ]+$/ regular expression' },
      { location: 'query', field: 'sort', message: 'sort must be one of the following values: name, price' },
      { location: 'query', field: 'level', message: 'level must be one of the following values: 1, 2' },
      { location: 'query', field: 'tag', message: 'tag must contain no more than 3 elements' },
      { location: 'query', field: 'ids', message: 'each value in ids must not be less than 1' },
    ]);
  });

  it('says Field required for an absent property with neither @IsOptional() nor a default', async () => {
    assert.deepEqual(await details('/tasks/needed'), [
      { location: 'query', field: 'name', message: 'Field required' },
      { location: 'query', field: 'pick', message: 'Field required' },
    ]);
    assert.deepEqual(await details('/tasks/needed?name=x&pick=c'), [
      { location: 'query', field: 'pick', message: 'pick must be one of the following values: a, b' },
    ]);
    assert.deepEqual((await client.get('/tasks/needed?name=x&pick=a')).json(), { name: 'x', pick: 'a' });
  });
});

describe('@Query() class beside other parameters', () => {
  it('binds with @Path, a named @Query and @Body in one handler', async () => {
    const res = await client.post('/tasks/7?verbose=1&name=n&pick=b', { json: { title: 'Write' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { id: 7, verbose: true, query: { name: 'n', pick: 'b' }, body: { title: 'Write' } });
  });

  it('reports the failures of every source in one 422', async () => {
    const res = await client.post('/tasks/x?verbose=1&pick=b', { json: { title: 1 } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [
      { location: 'path', field: 'id', message: 'Input should be a valid number' },
      { location: 'query', field: 'name', message: 'Field required' },
      { location: 'body', field: 'title', message: 'title must be a string' },
    ]);
  });
});
