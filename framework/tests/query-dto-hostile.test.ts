import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ArrayMaxSize, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { BaseRouter, Get, router, serverUrl } from '../index';
import { Header, Query } from '../param';
import type { Server } from '../server';
import { TestClient } from '../testing';
import { raw } from './fixtures/raw-socket';

class Search {
  @IsOptional() @IsString() @MaxLength(20) q?: string;
  @IsOptional() @IsInt({ each: true }) ids?: number[];
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(3) tag?: string[];
}
// TypeScript refuses a decorated `toString` field (Object's is a method): decorated as the compiled class would be.
for (const decorator of [IsOptional(), IsString()]) decorator(Search.prototype, 'toString');

// What the handler sees as `toString`: the text sent, else the type of what is there (`undefined`, not Object's method).
function toStringOf(query: Search): string {
  const value = (query as unknown as Record<string, unknown>).toString;
  return typeof value === 'string' ? value : typeof value;
}

class Agent {
  @IsOptional() @IsString() @MaxLength(8) xName?: string;
}

class Api extends router('/') {
  @Get('/search') search(@Query() query: Search) {
    return {
      query,
      toStringValue: toStringOf(query),
      prototypeIsSearch: Object.getPrototypeOf(query) === Search.prototype,
      polluted: ({} as Record<string, unknown>).polluted ?? null,
    };
  }
  @Get('/agent') agent(@Header() headers: Agent) { return headers; }
}

const app = new BaseRouter().includeRouter(new Api());
const client = new TestClient(app);
let server: Server;
let port: number;
before(async () => {
  server = await app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

describe('@Query() class and hostile input', () => {
  it('ignores __proto__, constructor and prototype keys: nothing is set or polluted', async () => {
    const res = await client.get('/search?__proto__[polluted]=1&__proto__=x&constructor=y&constructor[prototype][polluted]=1&prototype=z&q=ok');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { query: { q: 'ok' }, toStringValue: 'undefined', prototypeIsSearch: true, polluted: null });
  });

  it('leaves a property named like an Object.prototype member undefined when absent, sets it when sent', async () => {
    assert.deepEqual((await client.get('/search')).json(), { query: {}, toStringValue: 'undefined', prototypeIsSearch: true, polluted: null });
    assert.equal((await client.get('/search?toString=x')).json().toStringValue, 'x');
  });

  it('answers a very long value with the rule\'s message, once', async () => {
    const res = await client.get(`/search?q=${'a'.repeat(15_000)}`);
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [{ location: 'query', field: 'q', message: 'q must be shorter than or equal to 20 characters' }]);
  });

  it('bounds the details of thousands of bad repeated keys (100 listed, the rest counted)', async () => {
    const url = `/search?${'ids=x&'.repeat(2_600)}tag=a`;
    assert.ok(url.length < 16 * 1024);
    const res = await fetch(`${serverUrl(server)}${url}`);
    assert.equal(res.status, 422);
    const body = await res.json() as { details: Array<{ field: string }>; omitted_details: number };
    assert.equal(body.details.length, 100);
    assert.equal(body.details[99].field, 'ids[99]');
    assert.equal(body.omitted_details, 2_500);
  });

  it('answers a long list of repeated keys past an array rule with one detail', async () => {
    const res = await fetch(`${serverUrl(server)}/search?${'tag=a&'.repeat(2_600)}`);
    assert.equal(res.status, 422);
    assert.deepEqual((await res.json() as { details: unknown }).details, [{ location: 'query', field: 'tag', message: 'tag must contain no more than 3 elements' }]);
  });

  it('is bounded by the server\'s 16 KiB request-line limit (431)', async () => {
    const { text } = await raw(port, `GET /search?${'tag=a&'.repeat(3_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 431/);
  });

  it('reads a header class from a long header with the rule\'s message', async () => {
    const res = await client.get('/agent', { headers: { 'x-name': 'n'.repeat(10_000) } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details, [{ location: 'header', field: 'xName', message: 'xName must be shorter than or equal to 8 characters' }]);
  });
});
