import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import express from 'express';
import { BaseRouter, Get, JSONResponse, Middleware, router, Use, type CallNext, type Request } from '../index';
import { bearerAuth } from '../security';

class RequireToken extends Middleware {
  static readonly security = bearerAuth();
  dispatch(request: Request, callNext: CallNext) {
    if (request.headers.authorization === 'Bearer t') return callNext(request);
    return new JSONResponse({ error: 'Unauthorized' }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

class Notes extends router('/notes') {
  @Get() list() { return [{ text: 'first' }]; }
  @Get('/secret') @Use(RequireToken) secret() { return { text: 'hidden' }; }
}

const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function start(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The URLs a page loads or links to: `src`, `href` and ReDoc's `spec-url`. */
async function urlsOf(url: string): Promise<string[]> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return [...(await res.text()).matchAll(/(?:src|href|spec-url)="([^"]+)"/g)].map((m) => m[1]);
}

describe('docs pages of an app mounted in Express under a prefix', () => {
  it('every page, asset and document answers under the mount path, and the document\'s servers name it', async () => {
    const outer = express();
    outer.use('/api', new BaseRouter({ title: 'Mounted' }).includeRouter(new Notes()).handler);
    const base = await start(outer);
    const urls = new Set<string>();
    for (const page of ['/api/docs', '/api/docs/', '/api/docs/swagger', '/api/docs/redoc']) for (const url of await urlsOf(base + page)) urls.add(url);
    assert.deepEqual([...urls].sort(), [
      '/api/docs/assets/favicon-32x32.png',
      '/api/docs/assets/redoc.standalone.js',
      '/api/docs/assets/swagger-ui-bundle.js',
      '/api/docs/assets/swagger-ui.css',
      '/api/docs/openapi.json',
      '/api/docs/openapi.yaml',
      '/api/docs/redoc',
      '/api/docs/swagger',
      '/api/docs/swagger-init.js',
    ]);
    for (const url of urls) assert.equal((await fetch(base + url)).status, 200, url);
    assert.match(await (await fetch(`${base}/api/docs/swagger-init.js`)).text(), /"url":"\/api\/docs\/openapi.json"/);
    const document = (await (await fetch(`${base}/api/docs/openapi.json`)).json()) as { servers: unknown; paths: Record<string, unknown> };
    assert.deepEqual(document.servers, [{ url: '/api' }]);
    assert.match(await (await fetch(`${base}/api/docs/openapi.yaml`)).text(), /^servers:\n {2}- url: \/api$/m);
    // What "Try it out" sends: the server URL joined with a path of the document.
    assert.equal((await fetch(`${base}/api/notes`)).status, 200);
    assert.equal((await fetch(`${base}/api/notes/secret`)).status, 401);
    assert.equal((await fetch(`${base}/api/notes/secret`, { headers: { authorization: 'Bearer t' } })).status, 200);
  });

  it('a nested mount and a pattern mount: each request\'s pages and servers carry its own mount path', async () => {
    const app = new BaseRouter({ title: 'Mounted' }).includeRouter(new Notes());
    const v1 = express.Router();
    v1.use('/v1', app.handler);
    const outer = express();
    outer.use('/api', v1);
    outer.use('/tenants/:tenant', app.handler);
    const base = await start(outer);
    for (const prefix of ['/api/v1', '/tenants/acme', '/tenants/globex']) {
      const assets = await urlsOf(`${base}${prefix}/docs/swagger`);
      assert.ok(assets.length && assets.every((url) => url.startsWith(`${prefix}/docs/`)), assets.join(' '));
      for (const url of assets) assert.equal((await fetch(base + url)).status, 200, url);
      const document = (await (await fetch(`${base}${prefix}/docs/openapi.json`)).json()) as { servers: unknown };
      assert.deepEqual(document.servers, [{ url: prefix }]);
    }
  });

  it('served at the root, the same app names the root', async () => {
    const base = await start(new BaseRouter({ title: 'Root' }).includeRouter(new Notes()).handler);
    assert.deepEqual(await urlsOf(`${base}/docs/swagger`), ['/docs/assets/favicon-32x32.png', '/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/swagger-init.js']);
    const document = (await (await fetch(`${base}/docs/openapi.json`)).json()) as { servers: unknown };
    assert.deepEqual(document.servers, [{ url: '/' }]);
  });
});

describe('the document of an app mounted in Express, requested under many spellings of the mount path', () => {
  // Counts how often the document is serialized: JSON.stringify and yaml both call toJSON on the way.
  class Counted extends BaseRouter {
    serializations = 0;
    override openapi() {
      const probe = { toJSON: () => (this.serializations++, 'probe') };
      return { ...super.openapi(), 'x-probe': probe } as unknown as ReturnType<BaseRouter['openapi']>;
    }
  }

  it('is serialized once per format, YAML only when asked for, and each request names a spelling of its mount path', async () => {
    const app = new Counted({ title: 'Mounted' }).includeRouter(new Notes());
    const outer = express();
    outer.use('/internal-service-api', app.handler);
    outer.use('/tenants/:tenant', app.handler);
    const base = await start(outer);
    const spellings = ['/internal-service-api', '/INTERNAL-service-api', '/Internal-Service-Api'];
    for (let n = 0; n < 20; n++) spellings.push(`/tenants/t${n}`, `/internal-service-API${'/'.repeat(n % 2)}`.replace(/\/$/, ''));
    for (const prefix of spellings) {
      const res = await fetch(`${base}${prefix}/docs/openapi.json`);
      assert.equal(res.status, 200, prefix);
      const document = (await res.json()) as { servers: Array<{ url: string }>; paths: Record<string, unknown> };
      // The spelling asked, or (past the first few) another casing of it, which Express routes alike.
      assert.equal(document.servers.length, 1);
      assert.equal(document.servers[0].url.toLowerCase(), prefix.toLowerCase(), prefix);
      assert.equal((await fetch(`${base}${document.servers[0].url}/notes`)).status, 200, document.servers[0].url);
      assert.deepEqual(Object.keys(document.paths), ['/notes', '/notes/secret']);
    }
    assert.equal(app.serializations, 1, 'JSON once, YAML not yet');
    for (const prefix of spellings) {
      const res = await fetch(`${base}${prefix}/docs/openapi.yaml`);
      assert.equal(res.status, 200, prefix);
      assert.match(await res.text(), new RegExp(`^servers:\\n {2}- url: ${prefix}\\n`, 'im'), prefix);
    }
    assert.equal(app.serializations, 2, 'YAML once');
  });

  it('answers the same bytes, ETag and 304 whether or not its mount path is among the ones kept', async () => {
    const app = new BaseRouter({ title: 'Mounted' }).includeRouter(new Notes());
    const outer = express();
    outer.use('/tenants/:tenant', app.handler);
    const base = await start(outer);
    const first = await fetch(`${base}/tenants/a/docs/openapi.json`);
    for (let n = 0; n < 10; n++) await (await fetch(`${base}/tenants/t${n}/docs/openapi.json`)).arrayBuffer();
    const late = await fetch(`${base}/tenants/late/docs/openapi.json`);
    const lateBody = await late.text();
    assert.equal(late.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(late.headers.get('content-length'), String(Buffer.byteLength(lateBody)));
    assert.equal(lateBody, (await first.text()).replace('"url":"/tenants/a"', '"url":"/tenants/late"'));
    const etag = late.headers.get('etag')!;
    assert.notEqual(etag, first.headers.get('etag'));
    // fetch sends `Cache-Control: no-cache` with a validator unless the request names its own.
    const again = await fetch(`${base}/tenants/late/docs/openapi.json`, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    assert.equal(again.status, 304);
    const head = await fetch(`${base}/tenants/late/docs/openapi.json`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(lateBody)));
  });
});
