import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import express from 'express';
import { BaseRouter, Get, Middleware, Post, router, type CallNext, type Request } from '../index';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';

class Notes extends router('/notes') {
  @Get() list() { return [{ text: 'first' }]; }
  @Post() create() { return [{ created: true }, 201]; }
}

/** A trellis middleware marking what went through the app. */
class Seen extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    response.headers.set('x-trellis', 'yes');
    return response;
  }
}

const app = () => new BaseRouter({ title: 'Notes', logger: silentLogger() }).includeRouter(Notes).addMiddleware(Seen);
const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function start(outer: express.Express): Promise<string> {
  const server = createServer(outer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a trellis app mounted in Express passes on what it has no route for', () => {
  it('reaches Express routes added after it (app.use(handler), then app.get)', async () => {
    const outer = express();
    outer.use(app().handler);
    outer.get('/legacy', async (_req, res) => {
      await new Promise((resolve) => setImmediate(resolve));
      res.json({ legacy: true });
    });
    const base = await start(outer);
    const legacy = await fetch(`${base}/legacy`);
    assert.equal(legacy.status, 200);
    assert.deepEqual(await legacy.json(), { legacy: true });
    assert.equal(legacy.headers.get('x-trellis'), null, 'trellis middleware runs around trellis routes only');
    const notes = await fetch(`${base}/notes`);
    assert.deepEqual(await notes.json(), [{ text: 'first' }]);
    assert.equal(notes.headers.get('x-trellis'), 'yes');
    // Nobody's route: Express's own 404, as after an Express router.
    const missing = await fetch(`${base}/nowhere`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Cannot GET \/nowhere/);
  });

  it('passes on a method it has no route for at a path it knows, as an Express router does', async () => {
    const outer = express();
    outer.use('/api', app().handler);
    outer.delete('/api/notes', (_req, res) => void res.status(204).end());
    outer.get('/api/legacy', (_req, res) => void res.send('legacy'));
    const base = await start(outer);
    assert.equal((await fetch(`${base}/api/notes`, { method: 'DELETE' })).status, 204);
    assert.equal((await fetch(`${base}/api/notes`, { method: 'POST' })).status, 201);
    assert.equal((await fetch(`${base}/api/notes`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${base}/api/notes`, { method: 'OPTIONS' })).headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    assert.equal(await (await fetch(`${base}/api/legacy`)).text(), 'legacy');
    // Its docs pages are routes like the others.
    assert.equal((await fetch(`${base}/api/docs/openapi.json`)).status, 200);
  });

  it('answers its own JSON 404 and 405 when it serves alone', async () => {
    const client = new TestClient(app());
    const missing = await client.get('/legacy');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { error: 'Not Found' });
    assert.equal((await client.delete('/notes')).status, 405);
  });
});
