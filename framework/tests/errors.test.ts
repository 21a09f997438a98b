import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, HTTPException, router } from '../index';
import { TestClient } from '../testing';
import { capturedLog, type LogLine } from './fixtures/captured-log';

class NotFoundError extends Error {}
class TaskNotFound extends NotFoundError {}

class Failing extends router('/fail') {
  @Get('/http') http() { throw new HTTPException(409, 'Task already exists'); }
  @Get('/http-headers') httpHeaders() { throw new HTTPException(401, 'Login first', { headers: { 'WWW-Authenticate': 'Bearer' } }); }
  @Get('/status') status() { throw Object.assign(new Error('Too many'), { status: 429 }); }
  @Get('/status-code') statusCode() { throw Object.assign(new Error('Gone for good'), { statusCode: 410 }); }
  @Get('/lib-5xx') lib5xx() { throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { status: 503 }); }
  @Get('/crash') crash() { throw new Error('secret at /srv/app/db.ts:12'); }
  @Get('/reject') async reject() { throw new TypeError('undefined is not a function'); }
  @Get('/string') str() { throw 'a string'; }
  @Get('/mapped') mapped() { throw new TaskNotFound('no task 7'); }
  @Get('/base') base() { throw new NotFoundError('nothing'); }
}

function appWithLog(): { app: BaseRouter; logged: LogLine[] } {
  const { logger, lines } = capturedLog();
  return { app: new BaseRouter({ logger }).includeRouter(new Failing()), logged: lines };
}

describe('errors', () => {
  it('turns HTTPException into its status and {"error": message}', async () => {
    const client = new TestClient(appWithLog().app);
    const res = await client.get('/fail/http');
    assert.equal(res.status, 409);
    assert.deepEqual(res.json(), { error: 'Task already exists' });
    const auth = await client.get('/fail/http-headers');
    assert.equal(auth.status, 401);
    assert.equal(auth.headers['www-authenticate'], 'Bearer');
  });

  it('uses a numeric status or statusCode of any error', async () => {
    const client = new TestClient(appWithLog().app);
    const a = await client.get('/fail/status');
    assert.equal(a.status, 429);
    assert.deepEqual(a.json(), { error: 'Too many' });
    const b = await client.get('/fail/status-code');
    assert.equal(b.status, 410);
    assert.deepEqual(b.json(), { error: 'Gone for good' });
  });

  it('keeps the message of a library 5xx out of the body', async () => {
    const { app, logged } = appWithLog();
    const res = await new TestClient(app).get('/fail/lib-5xx');
    assert.equal(res.status, 503);
    assert.deepEqual(res.json(), { error: 'Service Unavailable' });
    assert.equal(logged.length, 1);
  });

  for (const path of ['/fail/crash', '/fail/reject', '/fail/string']) {
    it(`answers anything else with a bare 500 and logs it once (${path})`, async () => {
      for (const env of ['production', 'development']) {
        const previous = process.env.NODE_ENV;
        process.env.NODE_ENV = env;
        const { app, logged } = appWithLog();
        const res = await new TestClient(app).get(path);
        process.env.NODE_ENV = previous;
        assert.equal(res.status, 500);
        assert.equal(res.text, '{"error":"Internal Server Error"}');
        assert.equal(logged.length, 1);
        // One pino line: the request id the response carried, the error through pino's serializer.
        const [line] = logged;
        assert.deepEqual([line.level, line.msg, line.reqId], [50, `GET ${path} failed`, res.headers['x-request-id']]);
        if (path === '/fail/string') assert.equal(line.err, 'a string');
        else assert.match(String(line.err?.stack), /^(Type)?Error: .+\n {4}at /);
      }
    });
  }

  it('maps an error class and its subclasses with addExceptionHandler', async () => {
    const { app, logged } = appWithLog();
    app.addExceptionHandler(NotFoundError, (error) => [{ error: error.message, kind: error.constructor.name }, 404]);
    const client = new TestClient(app);
    assert.deepEqual((await client.get('/fail/mapped')).json(), { error: 'no task 7', kind: 'TaskNotFound' });
    const res = await client.get('/fail/base');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), { error: 'nothing', kind: 'NotFoundError' });
    assert.equal(logged.length, 0);
  });

  it('prefers the nearest registered class', async () => {
    const { app } = appWithLog();
    app.addExceptionHandler(Error, () => [{ error: 'generic' }, 500]);
    app.addExceptionHandler(TaskNotFound, () => [{ error: 'specific' }, 404]);
    const client = new TestClient(app);
    assert.deepEqual((await client.get('/fail/mapped')).json(), { error: 'specific' });
    assert.deepEqual((await client.get('/fail/crash')).json(), { error: 'generic' });
  });

  it('falls back to a bare 500 when an exception handler itself throws', async () => {
    const { app, logged } = appWithLog();
    app.addExceptionHandler(NotFoundError, () => { throw new Error('handler bug'); });
    const res = await new TestClient(app).get('/fail/mapped');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.equal(logged.length, 1);
  });
});

describe('errors from libraries', () => {
  it('hides the message of an error marked expose: false (http-errors), keeping its status', async () => {
    class Lib extends router('/lib') {
      @Get() fail() { throw Object.assign(new Error('ENOENT: /srv/app/static/x'), { status: 404, expose: false }); }
    }
    const res = await new TestClient(new BaseRouter().includeRouter(new Lib())).get('/lib');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), { error: 'Not Found' });
  });
});
