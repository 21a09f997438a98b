import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, Get, RateLimit, router } from '../index';
import { compression, cors, etag, rateLimit } from '../plugins';

class Tasks extends router('/tasks') {
  @Get('/{id}') one() {
    return { id: 1, title: 'write docs', completed: false };
  }

  @RateLimit({ limit: 1_000, window: '1m' })
  @Get('/limited/{id}') limited() {
    return { id: 1 };
  }
}

// A GET whose handler returns a value is written before the listener returns (the writer in the same turn of the
// event loop, as without plug-ins): the CORS preflight middleware and the rate limit pass it through as it comes.
describe('the HTTP essentials on a synchronous GET', () => {
  it('keep it answered in the same turn, with their headers', async () => {
    const app = new BaseRouter({ sourceTypes: false, docs: false })
      .register(cors({ origins: ['http://localhost:5173'] }))
      .register(rateLimit({ global: false }))
      .register(etag())
      .register(compression())
      .includeRouter(Tasks);
    await app.start();
    for (const path of ['/tasks/1', '/tasks/limited/1']) {
      const req = new IncomingMessage(new Socket());
      Object.assign(req, { method: 'GET', url: path, headers: { host: 'x', origin: 'http://localhost:5173' }, complete: true });
      req.push(null);
      const res = new ServerResponse(req);
      let written: Record<string, unknown> | undefined;
      res.writeHead = ((status: number, headers: Record<string, unknown>) => ((written = { status, ...headers }), res)) as typeof res.writeHead;
      res.end = (() => res) as typeof res.end;
      app.handler(req, res);
      assert.ok(written, `${path} is written before the listener returns`);
      assert.equal(written.status, 200);
      assert.equal(written['access-control-allow-origin'], 'http://localhost:5173');
      assert.match(String(written.etag), /^W\/"/);
      if (path.includes('limited')) assert.match(String(written.ratelimit), /^"[^"]+";r=999;t=\d+$/);
    }
    await app.stop();
  });
});
