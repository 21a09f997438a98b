import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsString } from 'class-validator';
import { BaseRouter, Get, HTMLResponse, JSONResponse, Post, RedirectResponse, Response, router } from '../index';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

class TaskOut {
  @IsString() title = 'from a class';
  secret = undefined;
}

class Answers extends router('/r') {
  @Get('/object') object() { return { a: 1 }; }
  @Get('/array') array() { return [1, 'two', null]; }
  @Get('/dto') dto() { return new TaskOut(); }
  @Get('/async') async later() { return { later: true }; }
  @Get('/tuple') tuple() { return [{ error: 'Task not found' }, 404]; }
  @Get('/tuple-created') created() { return [{ id: 3 }, 201]; }
  @Get('/not-a-tuple') notTuple() { return ['a', 'b']; }
  @Get('/json') json() { return new JSONResponse({ ok: true }, { status: 202, headers: { 'X-Custom': 'yes' } }); }
  @Get('/html') html() { return new HTMLResponse('<h1>Hi</h1>', { status: 201 }); }
  @Get('/redirect') redirect() { return new RedirectResponse('/r/object'); }
  @Get('/redirect-301') moved() { return new RedirectResponse('/r/object', { status: 301 }); }
  @Get('/nothing') nothing() {}
  @Get('/null') nil() { return null; }
  @Get('/text') text() { return new Response('pong', { headers: { 'content-type': 'text/plain' } }); }
  @Post('/created', { status: 201 }) make() { return { made: true }; }
  @Get('/bytes') bytes() { return Buffer.from([1, 2, 3]); }
}

const client = new TestClient(new BaseRouter().includeRouter(new Answers()));

describe('return values', () => {
  it('sends objects, arrays, DTO instances and async results as JSON 200', async () => {
    for (const [path, body] of [['/r/object', { a: 1 }], ['/r/array', [1, 'two', null]], ['/r/dto', { title: 'from a class' }], ['/r/async', { later: true }]] as const) {
      const res = await client.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(res.json(), body, path);
      assert.equal(Number(res.headers['content-length']), res.body.length);
    }
  });

  it('uses the status of a [body, status] tuple', async () => {
    const notFound = await client.get('/r/tuple');
    assert.equal(notFound.status, 404);
    assert.deepEqual(notFound.json(), { error: 'Task not found' });
    assert.equal((await client.get('/r/tuple-created')).status, 201);
    assert.deepEqual((await client.get('/r/not-a-tuple')).json(), ['a', 'b']);
  });

  it('sends JSONResponse, HTMLResponse and Response with their status and headers', async () => {
    const json = await client.get('/r/json');
    assert.equal(json.status, 202);
    assert.equal(json.headers['x-custom'], 'yes');
    assert.deepEqual(json.json(), { ok: true });
    const html = await client.get('/r/html');
    assert.equal(html.status, 201);
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(html.text, '<h1>Hi</h1>');
    const text = await client.get('/r/text');
    assert.equal(text.headers['content-type'], 'text/plain');
    assert.equal(text.text, 'pong');
  });

  it('redirects with 307 by default, or the given status', async () => {
    const res = await client.get('/r/redirect');
    assert.equal(res.status, 307);
    assert.equal(res.headers.location, '/r/object');
    assert.equal((await client.get('/r/redirect-301')).status, 301);
  });

  it('answers undefined with 204 and no body; null is JSON null', async () => {
    const res = await client.get('/r/nothing');
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await client.get('/r/null')).text, 'null');
  });

  it('applies the status option of a route decorator', async () => {
    const res = await client.post('/r/created');
    assert.equal(res.status, 201);
    assert.deepEqual(res.json(), { made: true });
  });

  it('sends bytes as application/octet-stream', async () => {
    const res = await client.get('/r/bytes');
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.deepEqual([...res.body], [1, 2, 3]);
  });

  it('refuses a status outside 100-599', () => {
    assert.throws(() => new JSONResponse({}, { status: 99 }), (e: TrellisError) => e.code === 'TRELLIS_ERR_INVALID_STATUS');
    assert.throws(() => new JSONResponse({}, { status: 600 }), TrellisError);
  });
});
