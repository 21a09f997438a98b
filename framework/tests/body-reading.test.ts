import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, Get, Middleware, Post, Request, router, type CallNext } from '../index';
import type { Server } from '../server';
import { Req } from '../param';

// The body reader (pipeline/body-reader.ts) over a real socket: what arrives split, late, short, or too long.
let handled = 0;
const outcomes: number[] = [];

class Api extends router('/') {
  @Get('/ping') ping() { return { pong: true }; }
  @Post('/echo') async echo(@Req() request: Request) {
    const body = await request.json();
    handled++;
    return { body };
  }
}

class Outcome extends Middleware {
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    outcomes.push(response.status);
    return response;
  }
}

let server: Server;
let port: number;
before(async () => {
  const app = new BaseRouter({ bodyLimit: 1024 }).includeRouter(Api).addMiddleware(Outcome);
  server = await app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

async function open(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/** Everything the server sends until it closes the socket. */
function answer(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString())));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const head = (length: number | 'chunked') =>
  'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n' +
  (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${length}\r\n\r\n`);

describe('reading a body', () => {
  it('reads a body that arrives in several packets, some after a pause', async () => {
    const socket = await open();
    const text = answer(socket);
    const body = JSON.stringify({ words: 'split across packets' });
    socket.write(head(Buffer.byteLength(body)) + body.slice(0, 5));
    await sleep(30);
    socket.write(body.slice(5, 12));
    await sleep(30);
    socket.write(body.slice(12));
    assert.match(await text, /^HTTP\/1\.1 200 [^]*\r\n\r\n\{"body":\{"words":"split across packets"\}\}$/);
  });

  it('refuses a Content-Length above the limit at once, before any byte of the body is sent', async () => {
    const before = handled;
    const socket = await open();
    const text = answer(socket);
    socket.write(head(1025));
    const response = await text;
    assert.match(response, /^HTTP\/1\.1 413 [^]*\r\nconnection: close\r\n/i);
    assert.ok(response.endsWith('{"error":"Request body is larger than 1024 bytes"}'), response);
    assert.equal(handled, before);
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const socket = await open();
    const text = answer(socket);
    const chunk = '"' + 'a'.repeat(600) + '"';
    socket.write(head('chunked') + `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await sleep(20);
    socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    assert.ok((await text).endsWith('{"error":"Request body is larger than 1024 bytes"}'));
  });

  it('ends a body cut short by its client with a 400, never calling the handler, and keeps serving', async () => {
    const before = { handled, answered: outcomes.length };
    const socket = await open();
    socket.write(head(100) + '{"cut":');
    await sleep(50);
    socket.destroy();
    await sleep(50);
    assert.equal(handled, before.handled, 'the handler never ran');
    assert.deepEqual(outcomes.slice(before.answered), [400], 'the read ended ("Request aborted") instead of waiting');
    const next = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1]' });
    assert.deepEqual(await next.json(), { body: [1] });
  });
});

describe('keeping the connection', () => {
  it('keeps a socket whose requests frame no body, answered before Node marks them complete, for the next request', async () => {
    // No middleware: nothing between the route's plain value and the write (a write made while Node still parses
    // the request, before it marks it complete, must not close the socket).
    const bare = await new BaseRouter().includeRouter(Api).listen({ host: '127.0.0.1', port: 0 });
    const socket = connect((bare.address() as AddressInfo).port, '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const request = 'GET /ping HTTP/1.1\r\nHost: x\r\n\r\n';
      socket.write(request);
      await sleep(50);
      socket.write(request + 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      await sleep(100);
      const text = Buffer.concat(received).toString();
      assert.equal(text.match(/HTTP\/1\.1 200 /g)?.length, 3, text);
      assert.doesNotMatch(text, /connection: close/i);
      assert.ok(text.endsWith('{"body":{}}'), text);
    } finally {
      socket.destroy();
      await new Promise<void>((resolve) => { bare.closeAllConnections(); bare.close(() => resolve()); });
    }
  });
});
