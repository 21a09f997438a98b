import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { BaseRouter, Get, HTTPException, JSONResponse, Middleware, router, type CallNext, type Request } from '../index';
import { Query } from '../param';
import { TestClient } from '../testing';
import { capturedLog, silentLogger } from './fixtures/captured-log';
import { listening } from './fixtures/listening';

// Node's writeHead throws on a header value with CR, LF, NUL or a character above U+00FF; a throw in the
// response writer used to be an unhandled rejection, which ends a Node 20 process.
class Probe extends router('/probe') {
  @Get('/download') download(@Query('v') v: string) {
    return new JSONResponse({ ok: true }, { headers: { 'content-disposition': `attachment; filename="${v}"` } });
  }
  @Get('/thrown') thrown(@Query('v') v: string) {
    throw new HTTPException(409, 'Conflict', { headers: { 'x-reason': v } });
  }
  @Get('/status') status() { throw new HTTPException(1000, 'Odd'); }
  @Get('/name') name() { return new JSONResponse({}, { headers: { 'bad name': 'x' } }); }
  @Get('/fine') fine() { return { fine: true }; }
}

/** Copies `?tag=` into a response header and, on `?status=`, sets a status Node would send but HTTP has not. */
class Tagging extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    const tag = request.query.tag;
    if (typeof tag === 'string') response.headers.set('x-tag', tag);
    if (request.query.status) response.status = Number(request.query.status);
    return response;
  }
}

const { logger, lines: logged } = capturedLog();
const app = new BaseRouter({ logger })
  .includeRouter(new Probe())
  .addMiddleware(new Tagging());
const client = new TestClient(app);

const cases: Array<[string, string]> = [
  ['a character above U+00FF from a handler', '/probe/download?v=%E2%82%AC.pdf'],
  ['CR LF from a handler (header injection)', '/probe/download?v=a%0D%0ASet-Cookie:%20x=1'],
  ['NUL from a handler', '/probe/download?v=a%00b'],
  ['a bad value in HTTPException headers', '/probe/thrown?v=%E2%82%AC'],
  ['a bad value set by middleware', '/probe/fine?tag=%0Ax'],
  ['a header name with a space', '/probe/name'],
  ['a status of 1000 from HTTPException', '/probe/status'],
  ['a status of 700 set by middleware', '/probe/fine?status=700'],
  ['a status of 42 set by middleware', '/probe/fine?status=42'],
];

describe('a response Node cannot send', () => {
  for (const [name, path] of cases) {
    it(`turns ${name} into a logged 500, and the app serves on`, async () => {
      logged.length = 0;
      const res = await client.get(path);
      assert.equal(res.status, 500);
      assert.deepEqual(res.json(), { error: 'Internal Server Error' });
      const id = res.headers['x-request-id'];
      assert.match(String(id), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['x-tag'], undefined);
      assert.equal(res.headers['set-cookie'], undefined);
      assert.equal(logged.length, 1, 'logged once');
      assert.deepEqual([logged[0].level, logged[0].reqId], [50, id]);
      assert.ok(logged[0].msg?.startsWith(`GET ${path.split('?')[0]}`), logged[0].msg);
      assert.ok(logged[0].err?.stack, 'the error, with its stack');
      assert.equal((await client.get('/probe/fine')).status, 200);
    });
  }

  it('keeps serving when the logger itself throws', async () => {
    const broken = Object.assign(silentLogger(), { error: () => { throw new Error('log down'); } });
    const noisy = new BaseRouter({ logger: broken }).includeRouter(new Probe());
    const res = await new TestClient(noisy).get('/probe/download?v=%E2%82%AC');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
  });
});

describe('a real server answering a response Node cannot send', () => {
  const live = listening(app);

  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: live.port, path }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
      }).on('error', reject).end();
    });

  it('answers 500 on the socket and the next request on the same process gets 200', async () => {
    const bad = await get('/probe/download?v=%E2%82%AC.pdf');
    assert.deepEqual(bad, { status: 500, body: '{"error":"Internal Server Error"}' });
    assert.equal((await get('/probe/fine')).status, 200);
  });
});
