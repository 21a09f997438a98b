import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, FileResponse, Get, JSONResponse, Middleware, Post, Response, router, type CallNext, type Request } from '../index';
import { TrellisError } from '../framework-error';
import type { CookieOptions } from '../cookies';
import { Req } from '../param';
import { capturedLog, silentLogger } from './fixtures/captured-log';
import { TestClient } from '../testing';

class Session extends router('/') {
  @Get('/cookies') cookies(@Req() request: Request) {
    return { cookies: { ...request.cookies }, same: request.cookies === request.cookies };
  }
  @Get('/theme') theme(@Req() request: Request) { return { theme: request.cookies.theme ?? 'light', has: 'toString' in request.cookies }; }
  @Post('/login') login() {
    return new JSONResponse({ ok: true })
      .setCookie('session', 'abc 123;x', { httpOnly: true, secure: true, sameSite: 'lax', maxAge: 3600 })
      .setCookie('theme', 'dark');
  }
  @Post('/logout') logout() { return new Response(undefined, { status: 204 }).deleteCookie('session').deleteCookie('pref', { path: '/app', domain: 'example.com' }); }
  @Get('/file') file() { return new FileResponse(__filename).setCookie('seen', '1'); }
  @Get('/bad') bad() { return new JSONResponse({}).setCookie('bad name', 'x'); }
}

const app = (...middleware: Middleware[]) => new BaseRouter({ logger: silentLogger() }).includeRouter(Session).addMiddleware(...middleware);

/** The raw `Set-Cookie` lines of a response over a real socket (one header line each). */
async function rawSetCookies(path: string, method = 'POST'): Promise<string[]> {
  const server = await app().listen({ host: '127.0.0.1', port: 0 });
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
        res.resume();
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() === 'set-cookie') lines.push(res.rawHeaders[i + 1]);
        resolve(lines);
      }).on('error', reject).end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('request.cookies', () => {
  it('parses the Cookie header once, URL-decoding values; the first of a repeated name wins', async () => {
    const res = await new TestClient(app()).get('/cookies', { headers: { cookie: 'session=abc%20123; theme=dark;a=1; a=2;  spaced = yes ' } });
    assert.deepEqual(res.json(), { cookies: { session: 'abc 123', theme: 'dark', a: '1', spaced: 'yes' }, same: true });
  });

  it('is empty without a Cookie header, and has no inherited keys', async () => {
    assert.deepEqual((await new TestClient(app()).get('/cookies')).json(), { cookies: {}, same: true });
    assert.deepEqual((await new TestClient(app()).get('/theme')).json(), { theme: 'light', has: false });
  });

  it('never throws on a malformed header: what cannot be read is left out or kept as sent', async () => {
    const client = new TestClient(app());
    const cases: Array<[string, Record<string, string>]> = [
      ['b=%E0%A4%A; c=%zz', { b: '%E0%A4%A', c: '%zz' }],
      [';;;', {}],
      ['novalue; =; x=1', { '': '', x: '1' }],
      ['=', {}],
      ['\u00ff=\u00fe', { '\u00ff': '\u00fe' }],
      ['a'.repeat(8000), {}],
      ['__proto__=polluted; constructor=c', { ['__proto__']: 'polluted', constructor: 'c' }],
    ];
    for (const [cookie, expected] of cases) {
      const res = await client.get('/cookies', { headers: { cookie } });
      assert.equal(res.status, 200, cookie.slice(0, 20));
      assert.deepEqual(res.json().cookies, expected, cookie.slice(0, 20));
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('is readable by middleware before the handler', async () => {
    class Guard extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        if (request.cookies.session !== 'ok') return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
        return callNext(request);
      }
    }
    const client = new TestClient(app(new Guard()));
    assert.equal((await client.get('/theme')).status, 401);
    assert.equal((await client.get('/theme', { headers: { cookie: 'session=ok; theme=dark' } })).json().theme, 'dark');
  });
});

describe('response.setCookie and deleteCookie', () => {
  it('sends one Set-Cookie line per cookie, URL-encoded, with Path=/ and the attributes given', async () => {
    assert.deepEqual(await rawSetCookies('/login'), [
      'session=abc%20123%3Bx; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
      'theme=dark; Path=/',
    ]);
  });

  it('clears cookies with an empty value that expired at the epoch, on the path and domain given', async () => {
    assert.deepEqual(await rawSetCookies('/logout'), [
      'session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'pref=; Max-Age=0; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ]);
  });

  it('round-trips: what setCookie sends, request.cookies reads back', async () => {
    const client = new TestClient(app());
    const login = await client.post('/login');
    const cookie = (login.headers['set-cookie'] as string[]).map((line) => line.split(';')[0]).join('; ');
    assert.deepEqual((await client.get('/cookies', { headers: { cookie } })).json().cookies, { session: 'abc 123;x', theme: 'dark' });
  });

  it('adds to what middleware and files set: every cookie is kept', async () => {
    class Stamp extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        return (await callNext(request)).setCookie('visited', 'yes', { path: '/docs' });
      }
    }
    const client = new TestClient(app(new Stamp()));
    assert.deepEqual((await client.post('/login')).headers['set-cookie'], [
      'session=abc%20123%3Bx; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
      'theme=dark; Path=/',
      'visited=yes; Path=/docs',
    ]);
    const file = await client.get('/file');
    assert.equal(file.status, 200);
    assert.deepEqual(file.headers['set-cookie'], ['seen=1; Path=/', 'visited=yes; Path=/docs']);
  });

  it('throws TRELLIS_ERR_COOKIE where a cookie cannot be set, never at write time', () => {
    const invalid: Array<[string, string, CookieOptions?]> = [
      ['bad name', 'x'],
      ['semi;colon', 'x'],
      ['eq=ual', 'x'],
      ['', 'x'],
      ['naïve', 'x'],
      ['ok', 'a b', { encode: (value) => value }], // a value left unencoded must still be a cookie value
      ['ok', '\ud800'],
      ['ok', 'x', { domain: 'exa mple.com' }],
      ['ok', 'x', { path: '/a;b' }],
      ['ok', 'x', { maxAge: 1.5 }],
      ['ok', 'x', { expires: new Date(Number.NaN) }],
      ['ok', 'x', { sameSite: 'sometimes' as 'lax' }],
      ['ok', 'x', { priority: 'urgent' as 'high' }],
    ];
    for (const [name, value, options] of invalid) {
      assert.throws(
        () => new Response().setCookie(name, value, options),
        (error: unknown) => error instanceof TrellisError && error.code === 'TRELLIS_ERR_COOKIE' && error.message.startsWith(`Invalid cookie ${JSON.stringify(name)}: `),
        `${name}=${value} ${JSON.stringify(options)}`,
      );
    }
  });

  it('answers a handler that sets an invalid cookie like any failing handler: 500, nothing leaked', async () => {
    const { logger, lines: logged } = capturedLog();
    const client = new TestClient(new BaseRouter({ logger }).includeRouter(Session));
    const res = await client.get('/bad');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(logged[0].err?.code, 'TRELLIS_ERR_COOKIE');
    assert.equal((await client.get('/theme')).status, 200);
  });
});
