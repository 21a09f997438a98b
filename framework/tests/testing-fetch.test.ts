import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BaseRouter, Delete, Get, Head, JSONResponse, Post, router } from 'trellis';
import { Body, Header, Int, Path, Query } from 'trellis/param';
import { TestClient } from 'trellis/testing';
import { IsString, Length } from 'class-validator';

class NoteIn {
  @IsString() @Length(1, 50) text!: string;
}

class NoteRouter extends router('/notes') {
  @Get('/{note_id}') one(@Path('note_id', { type: Int }) id: number, @Query('fields', { default: 'all' }) fields: string) {
    return { id, fields };
  }
  @Post('/', { status: 201 }) create(@Body() body: NoteIn, @Header('x-trace', { default: 'none' }) trace: string) {
    return { text: body.text, trace };
  }
  @Get('/echo/host') host(@Header('host') host: string) {
    return { host };
  }
  @Get('/cookies/set') cookies() {
    return new JSONResponse({ ok: true }).setCookie('a', '1').setCookie('b', '2');
  }
  @Delete('/{note_id}', { status: 204 }) remove() {}
  @Head('/{note_id}/exists') exists() {
    return { exists: true };
  }
}

function client(): TestClient {
  const client = new TestClient(new BaseRouter().includeRouter(NoteRouter));
  after(() => client.close());
  return client;
}

describe('TestClient.fetch: a WHATWG fetch through the app in-process', () => {
  it('answers a GET with a Response: status, headers and the JSON body; the path and query reach the app', async () => {
    const response = await client().fetch('http://test/notes/7?fields=title');
    assert.ok(response instanceof Response);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.match(response.headers.get('x-request-id') ?? '', /./);
    assert.deepEqual(await response.json(), { id: 7, fields: 'title' });
  });

  it('sends the method, headers and body of init, and of a Request object', async () => {
    const fetch = client().fetch;
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 't-1' }, body: JSON.stringify({ text: 'hi' }) };
    const response = await fetch('http://test/notes', init);
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { text: 'hi', trace: 't-1' });
    const fromRequest = await fetch(new Request('https://api.example/notes', init));
    assert.deepEqual([fromRequest.status, await fromRequest.json()], [201, { text: 'hi', trace: 't-1' }]);
  });

  it("answers the app's refusals as they are: 422 with its envelope, 404", async () => {
    const fetch = client().fetch;
    const invalid = await fetch('/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(invalid.status, 422);
    assert.equal(((await invalid.json()) as { details: Array<{ field: string }> }).details[0].field, 'text');
    const missing = await fetch('/nowhere');
    assert.deepEqual([missing.status, await missing.json()], [404, { error: 'Not Found' }]);
  });

  it('takes a bare path, and gives the app the URL\'s host', async () => {
    const fetch = client().fetch;
    assert.deepEqual(await (await fetch('/notes/echo/host')).json(), { host: 'localhost' });
    assert.deepEqual(await (await fetch('http://api.test:8080/notes/echo/host')).json(), { host: 'api.test:8080' });
  });

  it('keeps every Set-Cookie header', async () => {
    const response = await client().fetch('/notes/cookies/set');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
  });

  it('gives no body for a 204 and for HEAD', async () => {
    const fetch = client().fetch;
    const deleted = await fetch('/notes/1', { method: 'DELETE' });
    assert.deepEqual([deleted.status, deleted.body, await deleted.text()], [204, null, '']);
    const head = await fetch('/notes/1/exists', { method: 'HEAD' });
    assert.deepEqual([head.status, head.body], [200, null]);
    assert.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  it('rejects with the reason of an aborted signal, as fetch does', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await assert.rejects(client().fetch('/notes/1', { signal: controller.signal }), /gave up/);
  });

  it('is a bound function: passed on alone (fetch: client.fetch), it still answers', async () => {
    const { fetch } = client();
    assert.equal((await fetch('/notes/2')).status, 200);
  });
});
