import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { IsString } from 'class-validator';
import { BaseRouter, Get, Post, router } from '../index';
import { TrellisError } from '../framework-error';
import { idGenerator } from '../request-id';
import { Body } from '../param';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

class NoteIn {
  @IsString() text!: string;
}

let handled = 0;
class Notes extends router('/notes') {
  @Post() create(@Body() body: NoteIn) { handled++; return [body, 201]; }
  @Post('/raw') raw(@Body() body: unknown) { handled++; return { kind: typeof body }; }
  @Get('/crash') crash() { throw new Error('boom at /srv/secret.ts'); }
}

const { logger, lines: logged } = capturedLog();
const app = new BaseRouter({ bodyLimit: 1024, logger }).includeRouter(new Notes());
const client = new TestClient(app);
const json = { 'content-type': 'application/json' };

describe('request ids', () => {
  it('sends a generated X-Request-Id on every response, unique per request', async () => {
    const a = await client.get('/nowhere');
    const b = await client.post('/notes', { json: { text: 'x' } });
    assert.match(String(a.headers['x-request-id']), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  it('sends it on responses written by Express middleware too', async () => {
    const withExpress = new BaseRouter().includeRouter(new Notes());
    withExpress.addMiddleware((req: { url?: string }, res: { statusCode: number; end(): void }, next: () => void) => {
      if (req.url === '/teapot') {
        res.statusCode = 418;
        return res.end();
      }
      next();
    });
    const c = new TestClient(withExpress);
    for (const path of ['/teapot', '/nowhere', '/docs/openapi.json']) {
      assert.match(String((await c.get(path)).headers['x-request-id']), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/, path);
    }
  });

  it('makes ids of at most 12 characters, drawing a new prefix when the counter would reach the rollover', () => {
    const next = idGenerator(36 ** 2);
    const ids = Array.from({ length: 36 ** 2 + 1 }, () => next());
    const prefixes = new Set(ids.map((id) => id.slice(0, 7)));
    assert.equal(prefixes.size, 2); // a new prefix after the 1,295th id (a 1-in-16,777,216 chance it repeats)
    assert.deepEqual([ids[0].slice(7), ids[1294].slice(7), ids[1295].slice(7), ids[1296].slice(7)], ['1', 'zz', '1', '2']);
    assert.equal(new Set(ids).size, ids.length);
    const defaults = idGenerator();
    for (let i = 0; i < 1000; i++) assert.match(defaults(), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
  });

  it("ignores a client's X-Request-Id by default, even one in the server's own format: two requests' log lines never share an id", async () => {
    logged.length = 0;
    const first = await client.get('/notes/crash');
    const theirs = String(first.headers['x-request-id']);
    for (const sent of [theirs, 'abc-123']) {
      const res = await client.get('/notes/crash', { headers: { 'x-request-id': sent } });
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/, sent);
      assert.notEqual(res.headers['x-request-id'], sent);
    }
    const ids = logged.map((line) => line.reqId);
    assert.equal(ids.length, 3);
    assert.equal(new Set(ids).size, 3);
  });

  it('with requestIdHeader, keeps a sane incoming id from that header and replaces an unsafe one', async () => {
    const trusting = new TestClient(new BaseRouter({ requestIdHeader: 'X-Correlation-Id' }).includeRouter(new Notes()));
    assert.equal((await trusting.get('/x', { headers: { 'x-correlation-id': 'abc-123' } })).headers['x-request-id'], 'abc-123');
    assert.notEqual((await trusting.get('/x', { headers: { 'x-request-id': 'abc-123' } })).headers['x-request-id'], 'abc-123');
    const unsafe = await trusting.get('/x', { headers: { 'x-correlation-id': 'a b\u0001<script>' } });
    assert.notEqual(unsafe.headers['x-request-id'], 'a b\u0001<script>');
    const long = await trusting.get('/x', { headers: { 'x-correlation-id': 'a'.repeat(500) } });
    assert.ok(String(long.headers['x-request-id']).length < 40);
    for (const requestIdHeader of ['x request id', '', 42]) {
      assert.throws(
        () => new BaseRouter({ requestIdHeader: requestIdHeader as string }),
        (error: TrellisError) => error.code === 'TRELLIS_ERR_REQUEST_ID_HEADER',
      );
    }
  });

  it('writes the request id into the log line of a 500, and nothing of the error into the body', async () => {
    logged.length = 0;
    const res = await client.get('/notes/crash');
    assert.equal(res.status, 500);
    assert.equal(res.text, '{"error":"Internal Server Error"}');
    const id = res.headers['x-request-id'];
    assert.deepEqual(logged.map((line) => [line.msg, line.reqId, line.err?.message]), [['GET /notes/crash failed', id, 'boom at /srv/secret.ts']]);
  });
});

describe('JSON body hardening', () => {
  it('decodes gzip, deflate and br bodies', async () => {
    const body = JSON.stringify({ text: 'zipped' });
    for (const [encoding, bytes] of [['gzip', gzipSync(body)], ['deflate', deflateSync(body)], ['br', brotliCompressSync(body)]] as const) {
      const res = await client.post('/notes', { body: bytes, headers: { ...json, 'content-encoding': encoding } });
      assert.equal(res.status, 201, encoding);
      assert.deepEqual(res.json(), { text: 'zipped' });
    }
  });

  it('refuses a gzip body that inflates past the limit with 413, without running the handler', async () => {
    handled = 0;
    const bomb = gzipSync(JSON.stringify({ text: 'a'.repeat(100_000) }));
    assert.ok(bomb.length < 1024, 'small on the wire');
    const res = await client.post('/notes', { body: bomb, headers: { ...json, 'content-encoding': 'gzip' } });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json(), { error: 'Request body is larger than 1024 bytes' });
    assert.equal(handled, 0);
  });

  it('answers corrupt gzip with 400 and an unknown encoding with 415', async () => {
    const corrupt = await client.post('/notes', { body: Buffer.from('not gzip at all'), headers: { ...json, 'content-encoding': 'gzip' } });
    assert.equal(corrupt.status, 400);
    assert.deepEqual(corrupt.json(), { error: 'Request body could not be decoded' });
    const unknown = await client.post('/notes', { body: '{}', headers: { ...json, 'content-encoding': 'zstd-9000' } });
    assert.equal(unknown.status, 415);
  });

  it('answers unsupported charsets and content types with 415', async () => {
    for (const type of ['application/json; charset=latin1', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await client.post('/notes', { body: '{"text":"x"}', headers: { 'content-type': type } });
      assert.equal(res.status, 415, type);
      assert.equal(typeof res.json().error, 'string');
    }
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/problem+json']) {
      assert.equal((await client.post('/notes', { body: '{"text":"x"}', headers: { 'content-type': type } })).status, 201, type);
    }
  });

  it('answers JSON nested 20,000 deep with 400, and accepts 64 levels', async () => {
    const big = new TestClient(new BaseRouter({ bodyLimit: 1024 * 1024 }).includeRouter(new Notes()));
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    for (const [path, body] of [['/notes/raw', deep], ['/notes', `{"text":"x","extra":${deep}}`]]) {
      const res = await big.post(path, { body, headers: json });
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.json(), { error: 'JSON body is nested deeper than 64 levels' });
    }
    const ok = await big.post('/notes/raw', { body: '['.repeat(63) + '{"a":"[[[[{{{{"}' + ']'.repeat(63), headers: json });
    assert.equal(ok.status, 200);
  });

  it('answers an empty body on a JSON endpoint with 422, and a body that is only whitespace with 400', async () => {
    assert.equal((await client.post('/notes', { body: '', headers: json })).status, 422);
    assert.equal((await client.post('/notes', { body: '   ', headers: json })).status, 400);
  });
});
