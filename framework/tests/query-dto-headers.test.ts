import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsArray, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { BaseRouter, Get, router } from '../index';
import { Header, Query } from '../param';
import { TestClient } from '../testing';

class TraceHeaders {
  /** camelCase: the header `request-id`. */
  @IsString() @MaxLength(16) requestId!: string;
  /** Quoted with a dash: the header of that name. */
  @IsOptional() @IsString() 'X-Trace-Id'?: string;
  @IsInt() @Min(0) xRetries = 0;
  @IsOptional() @IsArray() @IsString({ each: true }) xTags?: string[];
  @IsOptional() @IsInt({ each: true }) xIds?: number[];
}

class Page {
  @IsInt() @Min(1) page = 1;
}

class Traced extends router('/traced') {
  @Get() read(@Header() headers: TraceHeaders, @Query() query: Page, @Header('user-agent', { default: 'none' }) agent: string) {
    return { headers, page: query.page, agent };
  }
}

const client = new TestClient(new BaseRouter().includeRouter(new Traced()));

describe('@Header() class', () => {
  it('reads camelCase properties from kebab-case headers and quoted names as written, in any letter case', async () => {
    const res = await client.get('/traced?page=2', { headers: { 'REQUEST-ID': 'r-1', 'x-trace-ID': 't-9', 'X-Retries': '3', 'user-agent': 'tests' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { headers: { requestId: 'r-1', 'X-Trace-Id': 't-9', xRetries: 3 }, page: 2, agent: 'tests' });
  });

  it('keeps class defaults and leaves optional headers undefined', async () => {
    assert.deepEqual((await client.get('/traced', { headers: { 'request-id': 'r' } })).json().headers, { requestId: 'r', xRetries: 0 });
  });

  it('reads an array property from a comma-separated header', async () => {
    const res = await client.get('/traced', { headers: { 'request-id': 'r', 'x-tags': 'a, b,c', 'x-ids': '1,2' } });
    assert.deepEqual(res.json().headers, { requestId: 'r', xRetries: 0, xTags: ['a', 'b', 'c'], xIds: [1, 2] });
  });

  it('answers 422 with location header and the property as field', async () => {
    const missing = await client.get('/traced', { headers: { 'x-retries': 'many', 'x-ids': '1,x' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json().details, [
      { location: 'header', field: 'requestId', message: 'Field required' },
      { location: 'header', field: 'xRetries', message: 'Input should be a valid integer' },
      { location: 'header', field: 'xIds[1]', message: 'Input should be a valid integer' },
    ]);
    const broken = await client.get('/traced?page=0', { headers: { 'request-id': 'r'.repeat(17), 'x-retries': '-1' } });
    assert.deepEqual(broken.json().details, [
      { location: 'header', field: 'requestId', message: 'requestId must be shorter than or equal to 16 characters' },
      { location: 'header', field: 'xRetries', message: 'xRetries must not be less than 0' },
      { location: 'query', field: 'page', message: 'page must not be less than 1' },
    ]);
  });
});
