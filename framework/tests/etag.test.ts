import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { BaseRouter, ETag, Get, JSONResponse, Post, Response, router } from '../index';
import { cors, etag } from '../plugins';
import { TestClient } from '../testing';

const store = { title: 'write docs' };
const big = Array.from({ length: 450 }, (_, id) => ({ id, title: `task number ${id}`, done: id % 2 === 0 }));

class Tasks extends router('/tasks') {
  @Get('/1') one() {
    return { id: 1, title: store.title };
  }

  @Get('/cached') cached(): JSONResponse {
    return new JSONResponse({ id: 1 }, { headers: { 'cache-control': 'private, max-age=60', vary: 'Authorization' } });
  }

  @Get('/big') big() {
    return big;
  }

  @Get('/own') own(): JSONResponse {
    return new JSONResponse({ id: 1 }, { headers: { etag: '"v7"' } });
  }

  @Get('/text') text(): Response {
    return new Response('plain', { headers: { 'content-type': 'text/plain' } });
  }

  @Get('/stream') stream(): Response {
    return new Response(Readable.from(['{"a":1}']), { headers: { 'content-type': 'application/json' } });
  }

  @Get('/problem') problem(): JSONResponse {
    return new JSONResponse({ error: 'Not Found' }, { status: 404 });
  }

  @ETag(false) @Get('/random') random() {
    return { value: Math.random() };
  }

  @Post('/') create() {
    return { id: 2 };
  }
}

@ETag()
class Marked extends router('/marked') {
  @Get('/') list() {
    return [1, 2];
  }
}

const app = (options?: Parameters<typeof etag>[0]) => new BaseRouter({ sourceTypes: false }).register(etag(options)).includeRouter(Tasks).includeRouter(Marked);

describe('conditional GETs: ETag and 304', () => {
  it('tags a JSON 200 with a weak ETag and answers its If-None-Match with a bodiless 304', async () => {
    const c = new TestClient(app());
    const first = await c.get('/tasks/1');
    assert.equal(first.status, 200);
    const tag = first.headers.etag as string;
    assert.match(tag, /^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await c.get('/tasks/1', { headers: { 'if-none-match': tag } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, tag);
    assert.equal(again.headers['content-length'], undefined);
    assert.equal(again.headers['content-type'], undefined);
  });

  it('gives a changed resource a new ETag and a 200 to the old tag', async () => {
    const c = new TestClient(app());
    const tag = (await c.get('/tasks/1')).headers.etag as string;
    store.title = 'write more docs';
    try {
      const changed = await c.get('/tasks/1', { headers: { 'if-none-match': tag } });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.etag, tag);
      assert.deepEqual(changed.json(), { id: 1, title: 'write more docs' });
    } finally {
      store.title = 'write docs';
    }
  });

  it('keeps Cache-Control and Vary on the 304', async () => {
    const c = new TestClient(app());
    const tag = (await c.get('/tasks/cached')).headers.etag as string;
    const res = await c.get('/tasks/cached', { headers: { 'if-none-match': tag } });
    assert.equal(res.status, 304);
    assert.equal(res.headers['cache-control'], 'private, max-age=60');
    assert.equal(res.headers.vary, 'Authorization');
  });

  it('reads If-None-Match as a list compared weakly, and *; anything malformed is no match', async () => {
    const c = new TestClient(app());
    const tag = (await c.get('/tasks/1')).headers.etag as string;
    const strong = tag.slice(2);
    for (const header of [`"other", ${tag}`, `W/"a",${strong}`, `  ${strong}  `, '*']) {
      assert.equal((await c.get('/tasks/1', { headers: { 'if-none-match': header } })).status, 304, header);
    }
    for (const header of ['', 'garbage', strong.slice(1, -1), `x${strong}`, 'W/', '""', '"', `${'"a", '.repeat(2000)}"b"`, `W/W/${strong}`]) {
      const res = await c.get('/tasks/1', { headers: { 'if-none-match': header } });
      assert.equal(res.status, 200, header.slice(0, 40));
      assert.equal(res.headers.etag, tag);
    }
  });

  it('answers HEAD with the ETag, and with a 304 when it matches', async () => {
    const c = new TestClient(app());
    const head = await c.head('/tasks/1');
    assert.equal(head.status, 200);
    assert.equal(head.headers.etag, (await c.get('/tasks/1')).headers.etag);
    assert.equal((await c.head('/tasks/1', { headers: { 'if-none-match': head.headers.etag as string } })).status, 304);
  });

  it('tags a 20 KB body from its serialized bytes', async () => {
    const c = new TestClient(app());
    const res = await c.get('/tasks/big');
    assert.ok(res.body.length > 20_000, String(res.body.length));
    const { weakETag } = await import('../etag/etag');
    assert.equal(res.headers.etag, weakETag(res.body));
    assert.equal((await c.get('/tasks/big', { headers: { 'if-none-match': res.headers.etag as string } })).status, 304);
  });

  it('leaves alone POST, other statuses, non-JSON, streams and an ETag the handler set', async () => {
    const c = new TestClient(app());
    const post = await c.post('/tasks', { headers: { 'if-none-match': '*' } });
    assert.equal(post.status, 200);
    assert.equal(post.headers.etag, undefined);
    for (const path of ['/tasks/problem', '/tasks/text', '/tasks/stream', '/nothing']) {
      const res = await c.get(path, { headers: { 'if-none-match': '*' } });
      assert.notEqual(res.status, 304, path);
      assert.equal(res.headers.etag, undefined, path);
    }
    const own = await c.get('/tasks/own', { headers: { 'if-none-match': '"v7"' } });
    assert.equal(own.status, 200);
    assert.equal(own.headers.etag, '"v7"');
  });

  it('follows @ETag(false) with every route on, and @ETag() alone with { all: false }', async () => {
    const all = new TestClient(app());
    assert.equal((await all.get('/tasks/random')).headers.etag, undefined);
    assert.ok((await all.get('/marked')).headers.etag);
    const marked = new TestClient(app({ all: false }));
    assert.equal((await marked.get('/tasks/1')).headers.etag, undefined);
    assert.ok((await marked.get('/marked')).headers.etag);
    const off = new TestClient(app(false));
    assert.equal((await off.get('/tasks/1')).headers.etag, undefined);
  });

  it('documents the ETag, the 304 and If-None-Match on the tagged routes only', async () => {
    const document = app().openapi();
    const one = document.paths['/tasks/1'].get;
    assert.deepEqual(
      one.parameters?.find((parameter) => parameter.name === 'If-None-Match'),
      { name: 'If-None-Match', in: 'header', required: false, description: one.parameters?.find((p) => p.name === 'If-None-Match')?.description, schema: { type: 'string' } },
    );
    assert.ok(one.responses['200'].headers?.ETag);
    assert.ok(one.responses['304']);
    const random = document.paths['/tasks/random'].get;
    assert.equal(random.responses['304'], undefined);
    assert.equal(random.parameters?.some((parameter) => parameter.name === 'If-None-Match') ?? false, false);
    assert.equal(document.paths['/tasks'].post.responses['304'], undefined);
  });

  it('runs with CORS: the 304 keeps Vary: Origin and the allowed origin', async () => {
    const c = new TestClient(new BaseRouter({ sourceTypes: false }).register(cors({ origins: ['http://localhost:5173'] })).register(etag()).includeRouter(Tasks));
    const headers = { origin: 'http://localhost:5173' };
    const tag = (await c.get('/tasks/1', { headers })).headers.etag as string;
    const res = await c.get('/tasks/1', { headers: { ...headers, 'if-none-match': tag } });
    assert.equal(res.status, 304);
    assert.equal(res.headers.vary, 'Origin');
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
  });

  it('refuses a setting other than true, false or { all: boolean }', () => {
    for (const value of ['yes', 1, null, { all: 'yes' }]) {
      assert.throws(() => etag(value as unknown as boolean), (error: Error & { code?: string }) => error.code === 'TRELLIS_ERR_ETAG_OPTION', String(value));
    }
  });
});
