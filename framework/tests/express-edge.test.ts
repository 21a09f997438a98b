import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import express from 'express';
import cors from 'cors';
import helmet from 'helmet';
import morgan from 'morgan';
import session from 'express-session';
import { rateLimit } from 'express-rate-limit';
import { IsString } from 'class-validator';
import { BaseRouter, Get, JSONResponse, Middleware, Post, router, type CallNext, type Request } from '../index';
import { Body, Req } from '../param';
import { silentLogger } from './fixtures/captured-log';
import { TestClient } from '../testing';

class NoteIn {
  @IsString() text!: string;
}

class Notes extends router('/notes') {
  @Get() list() { return [{ text: 'first' }]; }
  @Post() create(@Body() body: NoteIn) { return [body, 201]; }
  @Get('/visits') visits(@Req() request: Request) {
    const store = (request.raw as unknown as { session: { visits?: number } }).session;
    store.visits = (store.visits ?? 0) + 1;
    return { visits: store.visits };
  }
}

/** A trellis middleware around the Express ones: it sees what they and the route produced. */
class Seen extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    response.headers.set('x-seen', `${response.status} cors=${response.headers.get('access-control-allow-origin') ?? '-'}`);
    return response;
  }
}

const app = () => new BaseRouter({ title: 'Notes', logger: silentLogger() }).includeRouter(Notes);
const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function start(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('Express middleware in addMiddleware (one adapter)', () => {
  it('runs cors and helmet: their headers join the response, where trellis middleware around them reads them', async () => {
    const client = new TestClient(app().addMiddleware(Seen, cors({ origin: 'https://app.example' }), helmet()));
    const res = await client.get('/notes', { headers: { origin: 'https://app.example' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), [{ text: 'first' }]);
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(res.headers['x-seen'], '200 cors=https://app.example');
    const missing = await client.get('/nowhere', { headers: { origin: 'https://app.example' } });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { error: 'Not Found' });
    assert.equal(missing.headers['x-seen'], '404 cors=https://app.example');
  });

  it('lets a middleware answer by itself (a CORS preflight): middleware around it sees its status', async () => {
    const client = new TestClient(app().addMiddleware(Seen, cors({ origin: 'https://app.example' })));
    const res = await client.options('/notes', { headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE');
    assert.match(String(res.headers['x-request-id']), /./);
  });

  it('runs express-rate-limit: the request over the limit is its 429, the route never runs', async () => {
    const client = new TestClient(app().addMiddleware(rateLimit({ windowMs: 60_000, limit: 2, standardHeaders: 'draft-6', legacyHeaders: false })));
    assert.equal((await client.get('/notes')).status, 200);
    const second = await client.get('/notes');
    assert.equal(second.status, 200);
    assert.equal(second.headers['ratelimit-remaining'], '0');
    const third = await client.get('/notes');
    assert.equal(third.status, 429);
    assert.equal(third.text, 'Too many requests, please try again later.');
  });

  it('runs express-session: the cookie it sets comes back and the session persists', async () => {
    const client = new TestClient(app().addMiddleware(session({ secret: 'test secret', resave: false, saveUninitialized: false })));
    const first = await client.get('/notes/visits');
    assert.deepEqual(first.json(), { visits: 1 });
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    assert.match(cookie, /^connect\.sid=/);
    const second = await client.get('/notes/visits', { headers: { cookie } });
    assert.deepEqual(second.json(), { visits: 2 });
  });

  it('runs morgan: one access line per request with the status trellis sent', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line.trim()) };
    const client = new TestClient(app().addMiddleware(morgan(':method :url :status', { stream })));
    await client.get('/notes');
    await client.post('/notes', { json: { text: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(lines, ['GET /notes 200', 'POST /notes 422']);
  });

  it('keeps the cookies an Express middleware sets next to those the handler sets', async () => {
    class Cookies extends router('/cookies') {
      @Get() set() { return new JSONResponse({ ok: true }).setCookie('b', '2'); }
    }
    const client = new TestClient(
      new BaseRouter({ docs: false }).includeRouter(Cookies).addMiddleware((_req: unknown, res: { setHeader(n: string, v: string[]): void }, next: () => void) => {
        res.setHeader('Set-Cookie', ['a=1; Path=/']);
        next();
      }),
    );
    const res = await client.get('/cookies');
    assert.deepEqual(res.headers['set-cookie'], ['b=2; Path=/', 'a=1; Path=/']);
  });

  it('turns an error passed to next() into the app error response', async () => {
    const client = new TestClient(app().addMiddleware((_req: unknown, _res: unknown, next: (error?: unknown) => void) => next(new Error('boom'))));
    const res = await client.get('/notes');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
  });
});

describe('a trellis app mounted in an Express app', () => {
  it('serves its routes under the mount path, reading a body an outer express.json() parsed', async () => {
    const outer = express();
    outer.use(express.json());
    outer.use('/api', app().handler);
    const base = await start(createServer(outer));
    const res = await fetch(`${base}/api/notes`, { method: 'POST', body: '{"text":"parsed outside"}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { text: 'parsed outside' });
  });

  it('serves its docs pages under the mount path: links, assets and the document servers carry it', async () => {
    const outer = express();
    outer.use('/api', app().handler);
    const base = await start(createServer(outer));
    const landing = await (await fetch(`${base}/api/docs`)).text();
    assert.ok(landing.includes('href="/api/docs/swagger"'), landing);
    const swagger = await (await fetch(`${base}/api/docs/swagger`)).text();
    const assets = [...swagger.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(assets, ['/api/docs/assets/favicon-32x32.png', '/api/docs/assets/swagger-ui.css', '/api/docs/assets/swagger-ui-bundle.js', '/api/docs/swagger-init.js']);
    for (const asset of assets) assert.equal((await fetch(base + asset)).status, 200, asset);
    assert.match(await (await fetch(`${base}/api/docs/swagger-init.js`)).text(), /"url":"\/api\/docs\/openapi.json"/);
    const document = (await (await fetch(`${base}/api/docs/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    assert.deepEqual(document.servers, [{ url: '/api' }]);
    // What "Try it out" sends: the server URL joined with the path.
    assert.equal((await fetch(`${base}${document.servers[0].url}/notes`)).status, 200);
    // Served by itself, the same app's document names the root (Redocly's no-empty-servers).
    const direct = await start(createServer(app().handler));
    assert.deepEqual(((await (await fetch(`${direct}/docs/openapi.json`)).json()) as { servers?: unknown }).servers, [{ url: '/' }]);
  });
});
