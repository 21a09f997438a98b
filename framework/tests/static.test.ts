import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, Get, Middleware, router, type CallNext, type Request } from '../index';
import { TrellisError } from '../framework-error';
import type { Server } from '../server';
import { TestClient } from '../testing';

const SECRET = 'TOP-SECRET-4f1c';
let base: string;
let publicDir: string;

// base/secret.txt, base/public-old/old.txt (a sibling whose name starts like public), and base/public:
// a.txt, sub/b.css, sub/c d.txt, .env, .hidden/x.txt, and symlinks in, out, to a dotfile and to `..`.
before(() => {
  base = mkdtempSync(join(tmpdir(), 'trellis-static-'));
  publicDir = join(base, 'public');
  mkdirSync(join(publicDir, 'sub'), { recursive: true });
  mkdirSync(join(publicDir, '.hidden'));
  mkdirSync(join(base, 'public-old'));
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(base, 'public-old', 'old.txt'), SECRET);
  writeFileSync(join(publicDir, 'a.txt'), 'hello static');
  writeFileSync(join(publicDir, 'sub', 'b.css'), 'body { color: red }');
  writeFileSync(join(publicDir, 'sub', 'c d.txt'), 'spaced');
  writeFileSync(join(publicDir, '100%.txt'), 'percent');
  writeFileSync(join(publicDir, 'hash#1?.txt'), 'hash');
  writeFileSync(join(publicDir, 'ünï cödé.txt'), 'unicode');
  writeFileSync(join(publicDir, '.env'), SECRET);
  writeFileSync(join(publicDir, '.hidden', 'x.txt'), SECRET);
  symlinkSync(join(publicDir, 'a.txt'), join(publicDir, 'link-in.txt'));
  symlinkSync('../secret.txt', join(publicDir, 'link-out.txt'));
  symlinkSync('..', join(publicDir, 'link-up'));
  symlinkSync('.env', join(publicDir, 'link-dot.txt'));
  symlinkSync(join(base, 'public-old'), join(publicDir, 'link-sibling'));
});
after(() => rmSync(base, { recursive: true, force: true }));

class Api extends router('/api') {
  @Get('/ping') ping() { return { pong: true }; }
}

const app = () => new BaseRouter().includeRouter(Api).mountStatic('/static', publicDir);

/** GET over a real socket with the path sent byte for byte (test injectors normalize `..` away). */
async function rawGet(server: Server, path: string): Promise<{ status: number; type: string; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject).end();
  });
}

describe('app.mountStatic', () => {
  it('serves files with their content type, ETag and Last-Modified; HEAD, 304 and ranges work', async () => {
    const client = new TestClient(app());
    const res = await client.get('/static/a.txt');
    assert.equal(res.status, 200);
    assert.equal(res.text, 'hello static');
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.ok(res.headers.etag);
    assert.ok(res.headers['last-modified']);

    const css = await client.get('/static/sub/b.css?v=3');
    assert.equal(css.text, 'body { color: red }');
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.equal((await client.get('/static/sub/c%20d.txt')).text, 'spaced');

    const head = await client.head('/static/a.txt');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-length'], '12');

    const cached = await client.get('/static/a.txt', { headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(cached.status, 304);
    const range = await client.get('/static/a.txt', { headers: { range: 'bytes=0-4' } });
    assert.equal(range.status, 206);
    assert.equal(range.text, 'hello');
    const unsatisfiable = await client.get('/static/a.txt', { headers: { range: 'bytes=100-200' } });
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers['content-range'], 'bytes */12');
    assert.deepEqual(unsatisfiable.json(), { error: 'Range Not Satisfiable' });
  });

  it('serves names with %, #, ? and non-ASCII characters, sent percent-encoded', async () => {
    const client = new TestClient(app());
    assert.equal((await client.get('/static/100%25.txt')).text, 'percent');
    assert.equal((await client.get('/static/hash%231%3F.txt')).text, 'hash');
    assert.equal((await client.get(`/static/${encodeURIComponent('ünï cödé.txt')}`)).text, 'unicode');
    assert.equal((await client.get('/static/100%.txt')).status, 400, 'a malformed escape');
  });

  it('lets middleware see the real status of each static answer: 200, 206, 304, 404', async () => {
    const seen: number[] = [];
    class Watch extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        seen.push(response.status);
        return response;
      }
    }
    const client = new TestClient(app().addMiddleware(Watch));
    const first = await client.get('/static/a.txt');
    await client.get('/static/a.txt', { headers: { range: 'bytes=0-1' } });
    await client.get('/static/a.txt', { headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    await client.get('/static/.env');
    await client.get('/static/missing.txt');
    assert.deepEqual(seen, [200, 206, 304, 404, 404]);
  });

  it('follows symlinks that stay inside the directory', async () => {
    const res = await new TestClient(app()).get('/static/link-in.txt');
    assert.equal(res.status, 200);
    assert.equal(res.text, 'hello static');
  });

  it('keeps trellis routes and middleware in front of it', async () => {
    class Tag extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        response.headers.set('x-tag', 'seen');
        return response;
      }
    }
    const client = new TestClient(app().addMiddleware(Tag));
    assert.deepEqual((await client.get('/api/ping')).json(), { pong: true });
    const file = await client.get('/static/a.txt');
    assert.equal(file.text, 'hello static');
    assert.equal(file.headers['x-tag'], 'seen');
  });

  it('answers 404 JSON for dotfiles, directories and missing files, without a path in the message', async () => {
    const client = new TestClient(app());
    for (const path of ['/static/.env', '/static/.hidden/x.txt', '/static/link-dot.txt', '/static/', '/static', '/static/sub', '/static/missing.txt']) {
      const res = await client.get(path);
      assert.equal(res.status, 404, path);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
      assert.deepEqual(res.json(), { error: 'Not Found' }, path);
    }
  });

  it('answers 405 JSON with Allow for other methods (OPTIONS as on every route)', async () => {
    const res = await new TestClient(app()).post('/static/a.txt');
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
    assert.deepEqual(res.json(), { error: 'Method Not Allowed' });
  });

  it('never serves a byte from outside the directory, whatever the path encoding (real socket)', async () => {
    const server = await app().listen({ host: '127.0.0.1', port: 0 });
    try {
      const attempts = [
        '/static/../secret.txt',
        '/static/sub/../../secret.txt',
        '/static/%2e%2e/secret.txt',
        '/static/%2E%2E/%2e%2e/public/../secret.txt',
        '/static/..%2fsecret.txt',
        '/static/%2e%2e%2fsecret.txt',
        '/static/..%5csecret.txt',
        '/static/..\\secret.txt',
        '/static/sub%2fb.css',
        '/static/%2fetc%2fpasswd',
        '/static//etc/passwd',
        '/static/a.txt%00.png',
        '/static/%00',
        '/static/%',
        '/static/%zz',
        '/static/%c0%ae%c0%ae/secret.txt',
        '/static/..%252fsecret.txt',
        '/static/link-out.txt',
        '/static/link-up/secret.txt',
        '/static/link-up/public/.env',
        '/static/link-sibling/old.txt',
        '/static/../public-old/old.txt',
        '/static/.env',
        '/static/%2eenv',
        '/static/.hidden%2fx.txt',
      ];
      for (const path of attempts) {
        const res = await rawGet(server, path);
        assert.ok([400, 403, 404].includes(res.status), `${path}: ${res.status}`);
        assert.match(res.type, /^application\/json/, path);
        assert.deepEqual(Object.keys(JSON.parse(res.body)), ['error'], path);
        assert.ok(!res.body.includes(SECRET), `${path} leaked the secret`);
        assert.ok(!res.body.includes(base), `${path} leaked a path`);
      }
      assert.equal((await rawGet(server, '/static/%')).status, 400);
      assert.equal((await rawGet(server, '/static/a.txt')).body, 'hello static', 'still serving');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('may be mounted at the root, and prefixes are normalized', async () => {
    const client = new TestClient(new BaseRouter().mountStatic('/', publicDir).mountStatic('/assets/', join(publicDir, 'sub')));
    assert.equal((await client.get('/a.txt')).text, 'hello static');
    assert.equal((await client.get('/assets/b.css')).text, 'body { color: red }');
    assert.equal((await client.get('/.env')).status, 404);
  });

  it('checks the prefix and the directory at startup', () => {
    const fails = (fn: () => unknown, code: string) =>
      assert.throws(fn, (error: unknown) => error instanceof TrellisError && error.code === code, code);
    fails(() => new BaseRouter().mountStatic('static', publicDir), 'TRELLIS_ERR_STATIC_PREFIX');
    fails(() => new BaseRouter().mountStatic('/static/{name}', publicDir), 'TRELLIS_ERR_STATIC_PREFIX');
    fails(() => new BaseRouter().mountStatic('/static', join(base, 'nope')), 'TRELLIS_ERR_STATIC_DIR');
    fails(() => new BaseRouter().mountStatic('/static', join(base, 'secret.txt')), 'TRELLIS_ERR_STATIC_DIR');
    const mounted = new BaseRouter().mountStatic('/static/', publicDir);
    assert.deepEqual(mounted.staticMounts, [{ prefix: '/static', dir: publicDir }]);
  });
});
