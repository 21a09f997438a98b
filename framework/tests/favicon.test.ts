import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BaseRouter, Get, router } from '../index';
import { TrellisError } from '../framework-error';
import { TestClient } from '../testing';

const ICON = join(__dirname, 'fixtures', 'favicon', 'favicon.ico');

describe('app.favicon', () => {
  it('serves the file at GET /favicon.ico as image/x-icon, byte for byte, with caching headers', async () => {
    const client = new TestClient(new BaseRouter().favicon(ICON));
    const res = await client.get('/favicon.ico');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/x-icon');
    assert.deepEqual(res.body, readFileSync(ICON));
    assert.equal(res.headers['content-length'], String(readFileSync(ICON).length));
    assert.equal(res.headers['cache-control'], 'public, max-age=86400');
    assert.match(String(res.headers.etag), /^"[\w-]+"$/);

    const head = await client.head('/favicon.ico');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-type'], 'image/x-icon');

    const again = await client.get('/favicon.ico', { headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  it('reads the file once, when configured', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-favicon-'));
    try {
      const file = join(dir, 'favicon.ico');
      writeFileSync(file, 'first');
      const client = new TestClient(new BaseRouter().favicon(file));
      rmSync(file);
      assert.equal((await client.get('/favicon.ico')).text, 'first');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is a route: a JSON 404 when not configured; a router declaring it too is a duplicate; a static mount at / does not hide it', async () => {
    assert.deepEqual((await new TestClient(new BaseRouter()).get('/favicon.ico')).json(), { error: 'Not Found' });
    class Icons extends router('/') {
      @Get('/favicon.ico') icon() { return { from: 'route' }; }
    }
    assert.throws(() => new BaseRouter().favicon(ICON).includeRouter(Icons), {
      code: 'TRELLIS_ERR_DUPLICATE_ROUTE',
      message: 'Duplicate route GET /favicon.ico: Favicon.icon and Icons.icon declare the same method and path',
    });
    const listed = new BaseRouter({ docs: false }).favicon(ICON).routes.map((r) => `${r.method} ${r.path} ${r.label}`);
    assert.deepEqual(listed, ['GET /favicon.ico Favicon.icon']);
    const rootMount = new BaseRouter().mountStatic('/', join(__dirname, 'fixtures', 'favicon', '..', 'uploads')).favicon(ICON);
    const res = await new TestClient(rootMount).get('/favicon.ico');
    assert.equal(res.headers['content-type'], 'image/x-icon');
  });

  it('fails at startup when the file cannot be read', () => {
    assert.throws(() => new BaseRouter().favicon(join(__dirname, 'fixtures', 'favicon', 'missing.ico')), (error: unknown) => {
      assert.ok(error instanceof TrellisError);
      assert.equal(error.code, 'TRELLIS_ERR_FAVICON');
      return true;
    });
  });
});
