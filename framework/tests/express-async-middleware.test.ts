import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import express from 'express';
import cors from 'cors';
import { rateLimit } from 'express-rate-limit';
import { BaseRouter, Get, router, Use } from '../index';
import { TestClient } from '../testing';
import { capturedLog, type LogLine } from './fixtures/captured-log';

type Next = (error?: unknown) => void;
interface ExpressRes { status(code: number): { json(body: unknown): void } }

// Node 20 ends a process on a promise rejected with no handler: any here fails the test that caused it, at once.
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(unhandled, []);
});

/** `request`'s outcome, or the rejection nothing handled (the request would never be answered). */
function answered<T>(request: Promise<T>): Promise<T> {
  return Promise.race([request, new Promise<never>((_, reject) => process.once('unhandledRejection', reject))]);
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const errors = (lines: LogLine[]) => lines.filter((line) => line.level >= 50);

const rejecting = async (_req: unknown, _res: unknown, _next: Next) => {
  await tick();
  throw new Error('middleware failed');
};

class Open extends router('/open') {
  @Get() open() { return { open: true }; }
}
class Guarded extends router('/guarded') {
  @Get() @Use(rejecting) one() { return { reached: true }; }
}

function app() {
  const { logger, lines } = capturedLog();
  return { app: new BaseRouter({ docs: false, logger }).includeRouter(Open).includeRouter(Guarded), lines };
}

describe('an async Express middleware that rejects', () => {
  it('in @Use: 500 {error}, logged once with the request id, and the app serves on', async () => {
    const { app: served, lines } = app();
    const client = new TestClient(served);
    for (let i = 0; i < 3; i++) {
      const res = await answered(client.get('/guarded'));
      assert.equal(res.status, 500);
      assert.deepEqual(res.json(), { error: 'Internal Server Error' });
      const logged = errors(lines).filter((line) => line.reqId === res.headers['x-request-id']);
      assert.equal(logged.length, 1);
      assert.equal(logged[0].err?.message, 'middleware failed');
    }
    assert.equal(errors(lines).length, 3);
    assert.deepEqual((await client.get('/open')).json(), { open: true });
  });

  it('in addMiddleware, rejecting with nothing (Promise.reject()): 500, never the route', async () => {
    const { app: served, lines } = app();
    const client = new TestClient(served.addMiddleware((_req: unknown, _res: unknown, _next: Next) => Promise.reject()));
    const res = await answered(client.get('/open'));
    assert.equal(res.status, 500);
    assert.equal(errors(lines).length, 1);
  });

  it('after it called next() or answered: the response stands, the failure is logged once', async () => {
    const { app: served, lines } = app();
    const client = new TestClient(
      served.addMiddleware(async (req: { path: string }, res: ExpressRes, next: Next) => {
        if (req.path === '/open') next();
        else res.status(403).json({ error: 'Forbidden' });
        await tick();
        throw new Error('too late');
      }),
    );
    const open = await answered(client.get('/open'));
    assert.deepEqual(open.json(), { open: true });
    const forbidden = await answered(client.get('/nowhere'));
    assert.equal(forbidden.status, 403);
    // The rejection comes after the response: wait for its log line.
    while (errors(lines).length < 2) await tick();
    assert.deepEqual(
      errors(lines).map((line) => [line.reqId, line.err?.message]),
      [[open.headers['x-request-id'], 'too late'], [forbidden.headers['x-request-id'], 'too late']],
    );
  });

  it('inside a trellis app mounted in Express: 500 {error} from trellis, and Express serves on', async () => {
    const { app: served, lines } = app();
    const outer = express();
    outer.use(served.handler);
    outer.get('/legacy', (_req, res) => void res.json({ legacy: true }));
    const server = createServer(outer);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await answered(fetch(`${base}/guarded`));
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { error: 'Internal Server Error' });
      assert.equal(errors(lines).length, 1);
      assert.deepEqual(await (await fetch(`${base}/legacy`)).json(), { legacy: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('two Express middlewares stacked (cors, then express-rate-limit)', () => {
  it('send the 429 with the CORS headers, and log nothing', async () => {
    const { app: served, lines } = app();
    const client = new TestClient(served.addMiddleware(cors({ origin: 'https://app.example' }), rateLimit({ windowMs: 60_000, limit: 1, legacyHeaders: false })));
    const headers = { origin: 'https://app.example' };
    assert.equal((await client.get('/open', { headers })).status, 200);
    for (let i = 0; i < 3; i++) {
      const limited = await client.get('/open', { headers });
      assert.equal(limited.status, 429);
      assert.equal(limited.text, 'Too many requests, please try again later.');
      assert.equal(limited.headers['access-control-allow-origin'], 'https://app.example');
    }
    assert.deepEqual(errors(lines), []);
  });
});
