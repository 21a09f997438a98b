import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handlerStatus } from '../exception-status';
import { BaseRouter, Get, HTTPException, JSONResponse, router } from '../index';
import { Query } from '../param';
import { TestClient } from '../testing';

class QuotaExceeded extends Error {}
class Unmapped extends Error {}
class Vague extends Error {}

class QuotaRouter extends router('/quota') {
  @Get('/') spend(@Query('n') n: string): { left: number } {
    if (n === 'all') throw new QuotaExceeded('No quota left');
    if (n === 'none') throw new Unmapped();
    if (n === 'vague') throw new Vague();
    return { left: 1 };
  }
}

function quotaApp(): BaseRouter {
  const app = new BaseRouter();
  app.addExceptionHandler(QuotaExceeded, (error) => [{ error: error.message }, 409]);
  app.addExceptionHandler(Vague, (error) => (error.message ? [{ error: 'a' }, 400] : [{ error: 'b' }, 404]));
  app.includeRouter(QuotaRouter);
  return app;
}

describe('exception handlers in the OpenAPI document', () => {
  it('documents the status a handler answers for a thrown class, with the HTTPError body', async () => {
    const app = quotaApp();
    const doc = app.openapi() as any;
    const responses = doc.paths['/quota'].get.responses;
    assert.deepEqual(responses['409'], {
      description: 'Conflict',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    });
    assert.deepEqual(Object.keys(responses).sort(), ['200', '409', '422'], 'an unmapped class and a handler of two statuses add nothing');
    const response = await new TestClient(app).get('/quota', { query: { n: 'all' } });
    assert.equal(response.status, 409);
    assert.deepEqual(response.json(), { error: 'No quota left' });
  });
});

describe('handlerStatus: the status a handler answers, read from its text', () => {
  it('reads returned tuples, status properties and new HTTPException', () => {
    assert.equal(handlerStatus(() => [{ error: 'x' }, 409]), 409);
    assert.equal(handlerStatus(() => {
      return [{ error: 'x' }, 410] as const;
    }), 410);
    assert.equal(handlerStatus((error: Error) => new JSONResponse({ error: error.message }, { status: 429 })), 429);
    assert.equal(handlerStatus(() => {
      throw new HTTPException(403, 'no');
    }), 403);
    assert.equal(handlerStatus(function named() { return { status: 451 }; }), 451);
    const handlers = { handle(error: Error) { return [{ error: error.message }, 402]; } };
    assert.equal(handlerStatus(handlers.handle), 402, 'a method');
  });

  it('is undefined when the status is not a literal, is no error status, or is not one', () => {
    const status = 409;
    assert.equal(handlerStatus(() => [{ error: 'x' }, status]), undefined);
    assert.equal(handlerStatus(() => [{ ok: true }, 200]), undefined);
    assert.equal(handlerStatus((e: Error) => (e.message ? [{}, 400] : [{}, 404])), undefined);
    assert.equal(handlerStatus(Math.max), undefined, 'native code');
    assert.equal(handlerStatus(() => undefined), undefined);
  });
});
