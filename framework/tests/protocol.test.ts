import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Post, RedirectResponse, router } from '../index';
import { Body, Header, Query } from '../param';
import { TestClient } from '../testing';
import { firstResponse, raw, statusLines } from './fixtures/raw-socket';
import { listening } from './fixtures/listening';

class Api extends router('/') {
  @Get('/whoami') whoami(@Header('authorization', { default: null }) auth: string | null) { return { auth }; }
  @Post('/echo') echo(@Body() body: unknown) { return { body }; }
  @Get('/go') go(@Query('to') to: string) { return new RedirectResponse(to); }
}

const app = new BaseRouter().includeRouter(new Api());
const live = listening(app);

const send = async (head: string, body = '') => firstResponse((await raw(live.port, `${head}\r\n\r\n${body}`)).text);

describe('what HTTP forbids and Node lets through', () => {
  it('answers 431 to more than 1,000 header lines instead of dropping the rest', async () => {
    const fillers = Array.from({ length: 1_100 }, (_, i) => `x${i}: 1`).join('\r\n');
    const res = await send(`GET /whoami HTTP/1.1\r\nHost: x\r\n${fillers}\r\nAuthorization: Bearer t`);
    assert.equal(res.status, 431);
    assert.match(res.body, /"error":"Request has more than 1000 header lines"/);
    const fine = await send(`GET /whoami HTTP/1.1\r\nHost: x\r\n${fillers.split('\r\n').slice(0, 990).join('\r\n')}\r\nAuthorization: Bearer t\r\nConnection: close`);
    assert.deepEqual(JSON.parse(fine.body), { auth: 'Bearer t' });
  });

  it('answers an HTTP/1.1 request without Host with the JSON 400 and a request id', async () => {
    const res = await send('GET /whoami HTTP/1.1');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), { error: 'Request has no Host header' });
    assert.match(res.headers['x-request-id'], /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
    // HTTP/1.0 has no Host requirement.
    assert.equal((await send('GET /whoami HTTP/1.0')).status, 200);
  });

  it('answers a request with two Host headers with the JSON 400', async () => {
    const res = await send('GET /whoami HTTP/1.1\r\nHost: a\r\nHost: b');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), { error: 'Request has more than one Host header' });
  });

  it('refuses Transfer-Encoding: gzip, chunked with 501 instead of reading gzip as the body', async () => {
    const { text } = await raw(live.port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n');
    const res = firstResponse(text);
    assert.equal(res.status, 501);
    assert.match(res.body, /"error"/);
    assert.equal(statusLines(text).length, 1);
  });

  it('sends X-Content-Type-Options: nosniff on routes, errors, docs and what the parser refuses', async () => {
    const client = new TestClient(app);
    for (const path of ['/whoami', '/nowhere', '/docs/openapi.json', '/docs/swagger']) {
      assert.equal((await client.get(path)).headers['x-content-type-options'], 'nosniff', path);
    }
    assert.equal((await send('GET /whoami HTTP/1.1')).headers['x-content-type-options'], 'nosniff');
    assert.equal((await send('GARBAGE')).headers['x-content-type-options'], 'nosniff');
  });
});

describe('RedirectResponse', () => {
  it('keeps escapes as they are and encodes only what a URL cannot hold', async () => {
    const client = new TestClient(app);
    const location = async (to: string) => (await client.get('/go', { query: { to } })).headers.location;
    assert.equal(await location('/search?q=a%26b'), '/search?q=a%26b');
    assert.equal(await location('/café?x=a b'), '/caf%C3%A9?x=a%20b');
    assert.equal(await location('/a\r\nSet-Cookie: x=1'), '/a%0D%0ASet-Cookie:%20x=1');
    assert.equal(await location('/100%'), '/100%25');
  });
});
