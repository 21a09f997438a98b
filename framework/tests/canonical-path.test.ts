import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Get, JSONResponse, Middleware, router, type CallNext, type Request } from '../index';
import { Path } from '../param';
import { TestClient } from '../testing';
import { canonicalPath } from '../routing/canonical-path';
import { RouteTable } from '../routing/route-table';
import { firstResponse, raw } from './fixtures/raw-socket';
import { listening } from './fixtures/listening';

class Users extends router('/users') {
  @Get('/me') me() { return { who: 'me' }; }
  @Get('/{user_id}') one(@Path('user_id') id: string) { return { id }; }
}
class Files extends router('/files') {
  @Get('/{name}') file(@Path('name') name: string) { return { name }; }
}

/** A guard written the obvious way: by comparing the path. */
class GuardMe extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    if (request.path === '/users/me' && request.headers.authorization !== 'yes') {
      return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
    }
    return callNext(request);
  }
}

const seen: Array<{ path: string; route: string | undefined }> = [];
class Spy extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    seen.push({ path: request.path, route: request.route });
    return callNext(request);
  }
}

const app = new BaseRouter({ docs: false }).includeRouter(Users).includeRouter(Files).addMiddleware(new Spy(), new GuardMe());
const client = new TestClient(app);

describe('the path middleware sees is the path the router matched', () => {
  for (const variant of ['/users/me', '/users/%6de', '/users/%6D%65', '/users/me/', '/users/m%65/']) {
    it(`guards ${variant}`, async () => {
      const res = await client.get(variant);
      assert.equal(res.status, 401);
      assert.equal((await client.get(variant, { headers: { authorization: 'yes' } })).json().who, 'me');
    });
  }

  describe('on a real socket', () => {
    const live = listening(app);

    for (const target of ['http://x/users/me', 'HTTP://x/users/%6de/', '/users/me#frag', 'http://x/users/me?a=1']) {
      it(`guards the request target ${target}`, async () => {
        const { text } = await raw(live.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        assert.equal(firstResponse(text).status, 401, text);
      });
    }

    it('answers 400 for a target that is no path, or a malformed escape', async () => {
      for (const target of ['/users/%zz', '*', 'ftp://x/users/me']) {
        const { text } = await raw(live.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        const response = firstResponse(text);
        assert.equal(response.status, 400, target);
        assert.match(response.body, /"error"/);
      }
    });
  });

  it('sets request.route to the matched pattern before middleware runs, undefined when nothing matched', async () => {
    seen.length = 0;
    await client.get('/users/42');
    await client.get('/users/%6De');
    await client.get('/nowhere/');
    assert.deepEqual(seen, [
      { path: '/users/42', route: '/users/{user_id}' },
      { path: '/users/me', route: '/users/me' },
      { path: '/nowhere', route: undefined },
    ]);
  });

  it('keeps reserved escapes inside one segment, as the router does', async () => {
    seen.length = 0;
    assert.deepEqual((await client.get('/files/a%2Fb')).json(), { name: 'a/b' });
    assert.deepEqual((await client.get('/files/100%25')).json(), { name: '100%' });
    assert.deepEqual(seen.map((s) => s.path), ['/files/a%2Fb', '/files/100%25']);
  });
});

// find-my-way decodes the target itself; these pin that it matches our canonical path exactly as it matches
// the raw target (same route, same parameters), so middleware and router cannot disagree.
describe('canonicalPath and find-my-way agree', () => {
  const table = new RouteTable<string>();
  for (const path of ['/users/me', '/users/{id}', '/files/{name}', '/a/{x}/b/{y}']) table.add('GET', path, path, path);
  const targets = [
    '/users/me', '/users/%6de', '/users/me/', '/users/%2e%2e', '/users/a%2Fb', '/users/a%2fb', '/users/%2525',
    '/users/100%25', '/users/%C3%A9', '/users/%E2%82%AC/', '/files/a%3Fb', '/files/a%23b', '/a/%20/b/%2B', '/users/a+b',
    '/users/%40me', '/users/%3B', '/users/me#frag',
  ];
  for (const target of targets) {
    it(target, () => {
      const canonical = canonicalPath(target)!;
      const direct = table.find('GET', target);
      const viaCanonical = table.find('GET', canonical);
      assert.deepEqual(viaCanonical, direct);
      assert.equal(canonicalPath(canonical), canonical, 'canonical paths are fixed points');
    });
  }
});
