import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { BaseRouter, Config, EventSourceResponse, Get, JSONResponse, Response, router, StreamingResponse } from '../index';
import { TrellisError } from '../framework-error';
import { compression, type CompressionOptions } from '../plugins';
import { silentLogger } from './fixtures/captured-log';
import { TestClient, type TestResponse } from '../testing';

const TASKS = Array.from({ length: 300 }, (_, id) => ({ id, title: `task number ${id}`, done: id % 3 === 0, tags: ['work', 'home'] }));
const JSON_TEXT = JSON.stringify(TASKS);
const TEXT = 'lorem ipsum dolor sit amet '.repeat(200);

class Api extends router('/') {
  @Get('/tasks') tasks() { return TASKS; }
  @Get('/small') small() { return { ok: true }; }
  @Get('/text') text() { return new Response(TEXT, { headers: { 'content-type': 'text/plain; charset=utf-8' } }); }
  @Get('/bytes') bytes() { return new Response(Buffer.from(TEXT), { headers: { 'content-type': 'text/plain' } }); }
  @Get('/png') png() { return new Response(Buffer.alloc(5000, 7), { headers: { 'content-type': 'image/png' } }); }
  @Get('/untyped') untyped() { return new Response(TEXT); }
  @Get('/encoded') encoded() {
    return new Response(gzipSync(JSON_TEXT), { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  }
  @Get('/no-transform') noTransform() { return new JSONResponse(TASKS, { headers: { 'cache-control': 'public, no-transform' } }); }
  @Get('/vary') vary() { return new JSONResponse(TASKS, { headers: { vary: 'Origin' } }); }
  @Get('/vary-star') varyStar() { return new JSONResponse(TASKS, { headers: { vary: '*' } }); }
  @Get('/strong') strong() { return new JSONResponse(TASKS, { headers: { etag: '"v1"' } }); }
  @Get('/weak') weak() { return new JSONResponse(TASKS, { headers: { etag: 'W/"v1"' } }); }
  @Get('/empty') empty() { return new Response(undefined, { status: 204 }); }
  @Get('/partial') partial() {
    return new Response(TEXT.slice(0, 2000), { status: 206, headers: { 'content-type': 'text/plain', 'content-range': `bytes 0-1999/${TEXT.length}` } });
  }
  @Get('/huge') huge() { return new Response(TEXT.repeat(20), { headers: { 'content-type': 'text/plain' } }); }
  @Get('/stream') stream() {
    return new StreamingResponse((async function* () {
      for (let i = 0; i < 50; i++) yield `line ${i} of the streamed answer\n`;
    })(), { contentType: 'text/plain; charset=utf-8' });
  }
  @Get('/events') events() {
    return new EventSourceResponse((async function* () {
      for (let i = 0; i < 100; i++) yield `event number ${i} with some padding to pass the threshold`;
    })());
  }
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'trellis-compression-'));
  writeFileSync(join(dir, 'app.css'), 'body { color: red; margin: 0 auto; }\n'.repeat(200));
  writeFileSync(join(dir, 'tiny.css'), 'a{}');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const app = (options: CompressionOptions = {}) =>
  new BaseRouter({ logger: silentLogger(), sourceTypes: false }).includeRouter(Api).mountStatic('/static', dir).register(compression(options));

function decoded(res: TestResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'gzip') return gunzipSync(res.body).toString();
  if (coding === 'br') return brotliDecompressSync(res.body).toString();
  assert.equal(coding, undefined, `unexpected coding ${String(coding)}`);
  return res.body.toString();
}

const get = (client: TestClient, path: string, acceptEncoding?: string) =>
  client.get(path, acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } });

describe('compression: round trips', () => {
  const client = new TestClient(app());

  it('brotli for a browser (gzip, deflate, br): the body decompresses to the JSON, Content-Length of the compressed bytes', async () => {
    const res = await get(client, '/tasks', 'gzip, deflate, br');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(Number(res.headers['content-length']), res.body.length);
    assert.ok(res.body.length < JSON_TEXT.length / 4, `${res.body.length} bytes for ${JSON_TEXT.length}`);
    assert.deepEqual(JSON.parse(decoded(res)), TASKS);
  });

  it('gzip when the client takes only gzip; strings and Buffers alike', async () => {
    for (const path of ['/tasks', '/text', '/bytes']) {
      const res = await get(client, path, 'gzip');
      assert.equal(res.headers['content-encoding'], 'gzip', path);
      assert.equal(Number(res.headers['content-length']), res.body.length, path);
      assert.equal(decoded(res), path === '/tasks' ? JSON_TEXT : TEXT, path);
    }
  });

  it('a body above the synchronous limit goes through a zlib stream: chunked, no Content-Length, same bytes back', async () => {
    const res = await get(client, '/huge', 'br');
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(decoded(res), TEXT.repeat(20));
  });

  it('a stream body is compressed as it flows, without Content-Length', async () => {
    const res = await get(client, '/stream', 'gzip');
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['content-length'], undefined);
    const expected = Array.from({ length: 50 }, (_, i) => `line ${i} of the streamed answer\n`).join('');
    assert.equal(decoded(res), expected);
  });

  it('the OpenAPI document and the docs page are compressed', async () => {
    const json = await get(client, '/docs/openapi.json', 'gzip');
    assert.equal(json.status, 200);
    assert.equal(json.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(decoded(json)).paths['/tasks'] !== undefined, true);
    const yaml = await get(client, '/docs/openapi.yaml', 'br');
    assert.equal(yaml.headers['content-encoding'], 'br');
    assert.match(decoded(yaml), /^openapi: /m);
  });

  it('a static file is compressed (its stream, Content-Length gone, Accept-Ranges dropped, its ETag weak)', async () => {
    const plain = await get(client, '/static/app.css');
    const res = await get(client, '/static/app.css', 'gzip');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.headers['accept-ranges'], undefined);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.match(String(res.headers.etag), /^W\//);
    assert.equal(decoded(res), plain.text);
    assert.equal(plain.headers.vary, 'Accept-Encoding', 'compressible: Vary even when the client took no coding');
    const tiny = await get(client, '/static/tiny.css', 'gzip');
    assert.equal(tiny.headers['content-encoding'], undefined);
    assert.equal(tiny.text, 'a{}');
  });

  it('a static file asked with a Range stays identity: a 206 of the file\'s own bytes', async () => {
    const res = await client.get('/static/app.css', { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-9' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.text, 'body { col');
  });

  it('If-None-Match with the compressed answer\'s weak ETag gets the static file\'s 304', async () => {
    const first = await get(client, '/static/app.css', 'br');
    const again = await client.get('/static/app.css', { headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });
});

describe('compression: Vary and ETag', () => {
  const client = new TestClient(app());

  it('Vary: Accept-Encoding on a compressible response the client took uncompressed (no header, identity)', async () => {
    for (const header of [undefined, 'identity', 'deflate']) {
      const res = await get(client, '/tasks', header);
      assert.equal(res.headers['content-encoding'], undefined, String(header));
      assert.equal(res.headers.vary, 'Accept-Encoding', String(header));
      assert.deepEqual(res.json(), TASKS);
    }
  });

  it('appends to an existing Vary, and leaves Vary: * alone', async () => {
    assert.equal((await get(client, '/vary', 'gzip')).headers.vary, 'Origin, Accept-Encoding');
    assert.equal((await get(client, '/vary')).headers.vary, 'Origin, Accept-Encoding');
    assert.equal((await get(client, '/vary-star', 'gzip')).headers.vary, '*');
  });

  it('no Vary on responses that are never compressed: small, images, untyped', async () => {
    for (const path of ['/small', '/png', '/untyped']) {
      const res = await get(client, path, 'gzip, br');
      assert.equal(res.headers['content-encoding'], undefined, path);
      assert.equal(res.headers.vary, undefined, path);
    }
  });

  it('a strong ETag becomes weak on the compressed answer (nginx\'s choice); a weak one and an uncompressed one stay', async () => {
    assert.equal((await get(client, '/strong', 'gzip')).headers.etag, 'W/"v1"');
    assert.equal((await get(client, '/strong')).headers.etag, '"v1"');
    assert.equal((await get(client, '/weak', 'br')).headers.etag, 'W/"v1"');
  });
});

describe('compression: what is skipped', () => {
  const client = new TestClient(app());

  it('a body below the threshold, and the threshold moved', async () => {
    const small = await get(client, '/small', 'gzip');
    assert.equal(small.headers['content-encoding'], undefined);
    assert.deepEqual(small.json(), { ok: true });
    const low = await get(new TestClient(app({ threshold: 0 })), '/small', 'gzip');
    assert.equal(low.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(decoded(low)), { ok: true });
    const high = await get(new TestClient(app({ threshold: 1_000_000 })), '/tasks', 'gzip');
    assert.equal(high.headers['content-encoding'], undefined);
  });

  it('Server-Sent Events go out as they come', async () => {
    const res = await get(client, '/events', 'gzip, br');
    assert.equal(res.headers['content-encoding'], undefined);
    assert.match(res.text, /data: event number 99/);
  });

  it('a body that already has a Content-Encoding is sent as it is', async () => {
    const res = await get(client, '/encoded', 'br');
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(res.body).toString(), JSON_TEXT);
  });

  it('Cache-Control: no-transform', async () => {
    const res = await get(client, '/no-transform', 'gzip');
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers.vary, undefined);
    assert.deepEqual(res.json(), TASKS);
  });

  it('a 206 and a request with a Range header', async () => {
    const partial = await get(client, '/partial', 'gzip');
    assert.equal(partial.status, 206);
    assert.equal(partial.headers['content-encoding'], undefined);
    const ranged = await client.get('/tasks', { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-10' } });
    assert.equal(ranged.headers['content-encoding'], undefined);
    assert.deepEqual(ranged.json(), TASKS);
  });

  it('204 and a 404 error body below the threshold are untouched', async () => {
    const empty = await get(client, '/empty', 'gzip');
    assert.equal(empty.status, 204);
    assert.equal(empty.headers['content-encoding'], undefined);
    const missing = await get(client, '/nowhere', 'gzip, br');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-encoding'], undefined);
    assert.equal(missing.headers.vary, undefined);
    assert.equal(missing.json().error, 'Not Found');
  });

  it('HEAD: the headers GET would send (coding, Vary, weak ETag) with no body and no Content-Length', async () => {
    const res = await client.head('/strong', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(res.headers.etag, 'W/"v1"');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.body.length, 0);
    const file = await client.head('/static/app.css', { headers: { 'accept-encoding': 'br' } });
    assert.equal(file.headers['content-encoding'], 'br');
    assert.equal(file.body.length, 0);
    const plain = await client.head('/tasks');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(Number(plain.headers['content-length']), Buffer.byteLength(JSON_TEXT));
  });
});

describe('compression: options and config.yaml', () => {
  it('encodings order breaks q-value ties; gzip only never sends brotli', async () => {
    const gzipFirst = new TestClient(app({ encodings: ['gzip', 'br'] }));
    assert.equal((await get(gzipFirst, '/tasks', 'br, gzip')).headers['content-encoding'], 'gzip');
    const gzipOnly = new TestClient(app({ encodings: ['gzip'] }));
    assert.equal((await get(gzipOnly, '/tasks', 'br')).headers['content-encoding'], undefined);
  });

  it('levels change the bytes: gzip 1 is larger than gzip 9', async () => {
    const fast = await get(new TestClient(app({ gzipLevel: 1 })), '/tasks', 'gzip');
    const small = await get(new TestClient(app({ gzipLevel: 9 })), '/tasks', 'gzip');
    assert.ok(fast.body.length > small.body.length, `${fast.body.length} vs ${small.body.length}`);
    assert.equal(decoded(fast), decoded(small));
  });

  it('compression() without options reads config.yaml\'s compression: section', async () => {
    const configured = new BaseRouter({ logger: silentLogger(), sourceTypes: false })
      .provide(new Config({ compression: { threshold: 0, encodings: ['gzip'], gzip_level: 1, brotli_quality: 2 } }))
      .includeRouter(Api)
      .register(compression());
    const res = await get(new TestClient(configured), '/small', 'br, gzip');
    assert.equal(res.headers['content-encoding'], 'gzip');
    const defaults = new BaseRouter({ logger: silentLogger(), sourceTypes: false }).provide(new Config({ compression: null })).includeRouter(Api).register(compression());
    assert.equal((await get(new TestClient(defaults), '/tasks', 'gzip, br')).headers['content-encoding'], 'br');
  });

  it('a config section that does not fit names each setting', () => {
    const bad = new BaseRouter({ logger: silentLogger() }).provide(new Config({ compression: { gzip_level: 12, encodings: ['zstd'], threshold: -1, level: 3 } }));
    assert.throws(() => bad.register(compression()), (error: Error) => {
      for (const setting of ['compression.gzip_level', 'compression.encodings', 'compression.threshold', 'compression.level']) {
        assert.match(error.message, new RegExp(setting.replace('.', '\\.')));
      }
      return true;
    });
  });

  it('options that do not fit are TRELLIS_ERR_COMPRESSION_OPTION', () => {
    const cases: Array<[CompressionOptions, string]> = [
      [{ threshold: -1 }, 'threshold'],
      [{ threshold: 1.5 }, 'threshold'],
      [{ encodings: [] }, 'encodings'],
      [{ encodings: ['gzip', 'gzip'] }, 'encodings'],
      [{ encodings: ['deflate' as 'gzip'] }, 'encodings'],
      [{ gzipLevel: 0 }, 'gzipLevel'],
      [{ gzipLevel: 10 }, 'gzipLevel'],
      [{ brotliQuality: 12 }, 'brotliQuality'],
      [{ brotliQuality: Number.NaN }, 'brotliQuality'],
    ];
    for (const [options, option] of cases) {
      assert.throws(() => compression(options), (error: TrellisError) => error.code === 'TRELLIS_ERR_COMPRESSION_OPTION' && error.details.option === option, option);
    }
  });
});
