import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, Get, JSONResponse, Middleware, Post, router, type CallNext, type Request } from '../index';
import { Body } from '../param';
import { firstResponse, raw, statusLines } from './fixtures/raw-socket';
import { listening } from './fixtures/listening';

class Api extends router('/') {
  @Get('/ping') ping() { return { pong: true }; }
  @Post('/echo') echo(@Body() body: unknown) { return { body }; }
  @Post('/admin') admin() { return { ok: true }; }
}

class RequireToken extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    if (request.path === '/admin' && !request.headers.authorization) return new JSONResponse({ error: 'Unauthorized' }, { status: 401 });
    return callNext(request);
  }
}

const LIMIT = 64 * 1024;
const app = new BaseRouter({ bodyLimit: LIMIT }).includeRouter(new Api()).addMiddleware(new RequireToken());
const live = listening(app, { headersTimeout: 500, requestTimeout: 800 });

const chunk = (data: string) => `${data.length.toString(16)}\r\n${data}\r\n`;

/**
 * Opens a chunked POST and keeps sending 64 KiB chunks without ever ending the body, until the server closes
 * the socket or `maxBytes` were written. Resolves with what the server sent and how much it took.
 */
function endlessUpload(path: string, maxBytes: number): Promise<{ text: string; sent: number; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(live.port, '127.0.0.1');
    let text = '';
    let sent = 0;
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ text, sent, closedByServer });
    };
    const piece = chunk('x'.repeat(64 * 1024));
    const pump = () => {
      while (!done && sent < maxBytes) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (sent >= maxBytes) setTimeout(() => finish(false), 500);
    };
    socket.on('data', (data) => (text += data.toString('latin1')));
    socket.on('close', () => finish(true)).on('error', () => finish(true));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    pump();
  });
}

describe('a response sent before the body was read', () => {
  it('closes the connection after a 413 on a chunked body instead of wedging it', async () => {
    const { text, closedByServer } = await endlessUpload('/echo', 64 * 1024 * 1024);
    const res = firstResponse(text);
    assert.equal(res.status, 413);
    assert.equal(res.headers.connection, 'close');
    assert.ok(closedByServer, 'the server closed the socket');
  });

  for (const [name, path, status] of [['a 401 from middleware', '/admin', 401], ['a 404', '/nowhere', 404]] as const) {
    it(`stops reading an endless body after ${name}, and sends one response only`, async () => {
      const { text, sent, closedByServer } = await endlessUpload(path, 256 * 1024 * 1024);
      assert.equal(firstResponse(text).status, status);
      assert.equal(firstResponse(text).headers.connection, 'close');
      assert.ok(closedByServer, `the server closed the socket (the client sent ${sent} bytes)`);
      assert.deepEqual(statusLines(text).length, 1);
    });
  }

  it('never sends a second response (the 408 of the request timeout) after the first', async () => {
    // One chunk, and the body never ends: the request timeout (800 ms here) must not answer it again.
    const { text } = await raw(live.port, `POST /admin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk('abc')}`, 2_500);
    assert.deepEqual(statusLines(text), ['HTTP/1.1 401 Unauthorized']);
  });

  it('keeps the connection alive when the whole body had arrived', async () => {
    const body = '{"a":1}';
    const request = `POST /admin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const { text } = await raw(live.port, `${request}GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.deepEqual(statusLines(text), ['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 200 OK']);
  });
});
