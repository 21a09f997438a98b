import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { BaseRouter, Get, Middleware, router, type CallNext, type Request } from '../index';
import { silentLogger } from './fixtures/captured-log';
import { ADMIN_SPELLINGS } from './fixtures/path-spellings';
import { firstResponse, raw } from './fixtures/raw-socket';

const SECRET = 's3cret';
class Admin extends router('/admin') {
  @Get('/secret') secret() { return { secret: SECRET }; }
}
const app = () => new BaseRouter({ docs: false, logger: silentLogger() }).includeRouter(Admin);

interface ExpressReq { path: string; url: string; originalUrl?: string; get(name: string): string | undefined }
interface ExpressRes { status(code: number): { json(body: unknown): void } }
type Guard = (req: ExpressReq, res: ExpressRes, next: () => void) => void;

/** Guards written the Express way: by what the request's path or URL starts with. */
const guards: Record<string, Guard> = {
  'req.path': guardBy((req) => req.path),
  'req.url': guardBy((req) => req.url),
  'req.originalUrl || req.url': guardBy((req) => req.originalUrl || req.url),
};
function guardBy(read: (req: ExpressReq) => string): Guard {
  return (req, res, next) => (read(req).startsWith('/admin') && req.get('authorization') !== 'yes' ? res.status(401).json({ error: 'Unauthorized' }) : next());
}

async function send(port: number, target: string, headers = ''): Promise<{ status: number; body: string }> {
  const { text } = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
  const { status, body } = firstResponse(text);
  return { status, body };
}

function serve(listener: Parameters<typeof createServer>[1]): { readonly port: number } {
  let server: Server;
  before(() => new Promise<void>((resolve) => (server = createServer(listener)).listen(0, '127.0.0.1', resolve)));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { get port() { return (server.address() as AddressInfo).port; } };
}

/** `spelling` under the mount path `/api` (after the authority of an absolute-form target). */
const underApi = (spelling: string) => spelling.replace(/^(https?:\/\/[^/]+)?/, (authority) => `${authority}/api`);

describe('an Express guard in addMiddleware sees the path the router matches', () => {
  for (const [name, guard] of Object.entries(guards)) {
    describe(`reading ${name}`, () => {
      const live = serve(app().addMiddleware(guard).handler);

      it('answers every spelling of /admin/secret with the guard\'s 401, a 404 or a 400: never the secret', async () => {
        const served: string[] = [];
        for (const spelling of ADMIN_SPELLINGS) {
          const { status, body } = await send(live.port, spelling);
          if (![400, 401, 404].includes(status) || body.includes(SECRET)) served.push(`${spelling} -> ${status} ${body}`);
        }
        assert.deepEqual(served, []);
      });

      it('guards an escaped spelling the route matches (401), and serves it past the guard with credentials', async () => {
        for (const spelling of ['/%61dmin/secret', '/adm%69n/secret', '/admin/secret/', 'http://x/%61dmin/secret']) {
          assert.equal((await send(live.port, spelling)).status, 401, spelling);
          assert.equal((await send(live.port, spelling, 'Authorization: yes\r\n')).body, `{"secret":"${SECRET}"}`, spelling);
        }
      });
    });
  }

  it('gives the guard the routed path with the query string; request.url stays the target as received', async () => {
    const seen: string[] = [];
    const spy = (req: ExpressReq, _res: unknown, next: () => void) => {
      seen.push(`${req.path} ${req.url}`);
      next();
    };
    class Later extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        seen.push(`${request.raw.url} ${request.url}`);
        return callNext(request);
      }
    }
    const live = createServer(app().addMiddleware(spy, Later).handler);
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    try {
      const port = (live.address() as AddressInfo).port;
      assert.equal((await send(port, '/%61dmin/secret/?a=%61')).status, 200);
      assert.deepEqual(seen, ['/admin/secret /admin/secret?a=%61', '/%61dmin/secret/?a=%61 /%61dmin/secret/?a=%61']);
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  });
});

describe('a trellis app mounted in Express behind an Express guard', () => {
  const guarded = (mounted: (outer: express.Express) => void) => {
    const outer = express();
    outer.use('/api/admin', guardBy(() => '/admin'));
    mounted(outer);
    return outer;
  };
  const trellis = serve(guarded((outer) => outer.use('/api', app().handler)));
  const plain = serve(guarded((outer) => outer.get('/api/admin/secret', (_req, res) => void res.json({ secret: SECRET }))));

  it('is reached by no spelling the guard did not see, as a plain Express route is not', async () => {
    const served: string[] = [];
    for (const spelling of ADMIN_SPELLINGS.map(underApi)) {
      const mounted = await send(trellis.port, spelling);
      const alone = await send(plain.port, spelling);
      if (![400, 401, 404].includes(mounted.status) || mounted.body.includes(SECRET)) served.push(`${spelling} -> ${mounted.status} ${mounted.body}`);
      assert.equal(alone.body.includes(SECRET), false, `plain Express served ${spelling}`);
    }
    assert.deepEqual(served, []);
  });

  it('serves the route past the guard when the guard lets it through, as plain Express does', async () => {
    for (const live of [trellis, plain]) {
      const { status, body } = await send(live.port, '/api/admin/secret', 'Authorization: yes\r\n');
      assert.equal(status, 200);
      assert.deepEqual(JSON.parse(body), { secret: SECRET });
    }
  });

  it('serves escapes a path needs (a space, non-ASCII) in a parameter', async () => {
    class Files extends router('/files') {
      @Get('/{name}') file() { return { ok: true }; }
    }
    const outer = express();
    outer.use('/api', new BaseRouter({ docs: false, logger: silentLogger() }).includeRouter(Files).handler);
    const live = createServer(outer);
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    try {
      const port = (live.address() as AddressInfo).port;
      for (const target of ['/api/files/a%20b', '/api/files/caf%C3%A9', '/api/files/a%2Fb']) assert.equal((await send(port, target)).status, 200, target);
    } finally {
      await new Promise((resolve) => live.close(resolve));
    }
  });
});
