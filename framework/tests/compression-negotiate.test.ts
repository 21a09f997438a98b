import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BaseRouter, Get, router } from '../index';
import { isCompressible } from '../compression/compressible';
import { negotiator } from '../compression/negotiate';
import { compression } from '../plugins';
import { silentLogger } from './fixtures/captured-log';
import { TestClient } from '../testing';

describe('Accept-Encoding negotiation', () => {
  const pick = negotiator(['br', 'gzip']);
  const table: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['*;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, identity', undefined],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['gzip;q=0.5, identity;q=0', 'gzip'],
    ['identity;q=0', undefined],
    ['br;q=0.001', 'br'],
    ['gzip ; q=0.7 , br ; q=0.6', 'gzip'],
    ['gzip;Q=0.2, br;q=0.1', 'gzip'],
    ['gzip;level=9;q=0.9, br;q=0.3', 'gzip'],
    ['gzip;q=2', undefined],
    ['gzip;q=-1', undefined],
    ['gzip;q=abc, br', 'br'],
    ['gzip;q=0.0001', undefined],
    ['gzip;q=', undefined],
    ['gzip;q=1.000', 'gzip'],
    ['gzip;q=1.5, br;q=0.2', 'br'],
    [',,, ,gzip,,', 'gzip'],
    ['br;q=0, br;q=1', 'br'],
    ['g zip, b\u0000r', undefined],
  ];
  for (const [header, expected] of table) {
    it(`${JSON.stringify(header)} -> ${String(expected)}`, () => assert.equal(pick(header), expected));
  }

  it('the server order breaks ties', () => {
    const gzipFirst = negotiator(['gzip', 'br']);
    assert.equal(gzipFirst('br, gzip'), 'gzip');
    assert.equal(gzipFirst('br;q=1, gzip;q=0.9'), 'br');
    assert.equal(gzipFirst('*'), 'gzip');
  });

  it('answers the same from its cache, past its size limit', () => {
    for (let i = 0; i < 600; i++) assert.equal(pick(`gzip;q=0.9, br;q=0.${i % 9}, x${i}`), 'gzip');
    assert.equal(pick('gzip, deflate, br'), 'br');
    assert.equal(pick('gzip, deflate, br'), 'br');
  });

  it('hostile headers: long, many entries, many semicolons, garbage: linear time, no throw', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `c${i};q=0.5`).join(', ') + ', gzip;q=0.9';
    const semicolons = 'gzip' + ';'.repeat(200_000) + 'q=0.5';
    const equals = 'br;q' + '='.repeat(200_000);
    const spaces = 'gzip;' + ' '.repeat(200_000) + 'q=1';
    const garbage = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(i % 256)).join('');
    const start = process.hrtime.bigint();
    assert.equal(pick(many), 'gzip');
    assert.equal(pick(semicolons), 'gzip');
    assert.equal(pick(equals), undefined);
    assert.equal(pick(spaces), 'gzip');
    pick(garbage);
    pick(','.repeat(500_000));
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    assert.ok(ms < 2_000, `${ms} ms for hostile headers`);
  });
});

describe('compressible content types', () => {
  const yes = ['text/plain', 'text/html; charset=utf-8', 'TEXT/CSS', 'application/json', 'application/json; charset=utf-8', 'application/problem+json',
    'application/vnd.api+json', 'application/xml', 'image/svg+xml', 'application/javascript', 'text/javascript', 'application/x-javascript',
    'application/yaml', 'application/x-yaml', 'application/wasm', 'application/ld+json'];
  const no = [undefined, '', 'image/png', 'image/jpeg', 'application/zip', 'application/gzip', 'application/octet-stream', 'video/mp4', 'font/woff2',
    'text/event-stream', 'text/event-stream; charset=utf-8', 'application/x-ndjson', 'json', '/json', 'application/jsonp', `text/${'a'.repeat(300)}`];
  for (const type of yes) it(`${type} is compressible`, () => assert.equal(isCompressible(type), true));
  for (const type of no) it(`${String(type)} is not`, () => assert.equal(isCompressible(type), false));
});

describe('hostile Accept-Encoding over the app', () => {
  class Api extends router('/') {
    @Get('/tasks') tasks() { return Array.from({ length: 100 }, (_, id) => ({ id, title: `task ${id}` })); }
  }
  const client = new TestClient(new BaseRouter({ logger: silentLogger(), sourceTypes: false }).includeRouter(Api).register(compression()));

  it('garbage, huge and repeated values answer 200 with a body that decodes as its Content-Encoding says', async () => {
    const values = ['\u00ff\u00fe', 'gzip;q=NaN', 'gzip;q=Infinity', 'br;q=1e3', ';;;;', 'q=1', '*;*;*', 'gzip'.repeat(2_000), `${'x'.repeat(8_000)}, gzip`];
    for (const value of values) {
      const res = await client.get('/tasks', { headers: { 'accept-encoding': value } });
      assert.equal(res.status, 200, value.slice(0, 40));
      const coding = res.headers['content-encoding'];
      const text = coding === 'gzip' ? gunzipSync(res.body).toString() : coding === 'br' ? brotliDecompressSync(res.body).toString() : res.body.toString();
      assert.ok(coding === undefined || coding === 'gzip' || coding === 'br', `${String(coding)} for ${value.slice(0, 40)}`);
      assert.equal(JSON.parse(text).length, 100);
    }
  });
});
