import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, JSONResponse, router } from '../index';
import { ResponseHeaders } from '../response';
import { TestClient } from '../testing';

describe('ResponseHeaders', () => {
  it('finds only the names set, never those of the object prototype', () => {
    const headers = new ResponseHeaders({ 'Content-Type': 'text/plain' });
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      assert.equal(headers.has(name), false, name);
      assert.equal(headers.get(name), undefined, name);
      assert.equal(headers.delete(name), false, name);
    }
    assert.deepEqual(headers.getSetCookie(), []);
    assert.deepEqual([...headers], [['content-type', 'text/plain']]);
  });

  it('keeps names such as __proto__ and constructor as headers, leaving the object itself alone', () => {
    const headers = new ResponseHeaders();
    headers.set('__proto__', 'a').set('Constructor', 'b').append('constructor', 'c');
    assert.equal(headers.get('__proto__'), 'a');
    assert.equal(headers.get('constructor'), 'b, c');
    const object = headers.toObject();
    assert.equal(Object.getPrototypeOf(object), Object.prototype);
    assert.deepEqual(Object.keys(object), ['__proto__', 'constructor']);
    assert.equal(headers.delete('__proto__'), true);
    assert.equal(headers.has('__proto__'), false);
  });

  it('sends such names as ordinary headers', async () => {
    class Api extends router('/') {
      @Get('/odd') odd() { return new JSONResponse({ ok: true }, { headers: { constructor: 'x', __proto__: 'y' } as Record<string, string> }); }
    }
    const res = await new TestClient(new BaseRouter().includeRouter(Api)).get('/odd');
    assert.equal(res.status, 200);
    assert.equal(res.headers.constructor, 'x');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  });
});
