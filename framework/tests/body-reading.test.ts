import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, Middleware, Post, Request, router, type CallNext, type Server } from '../index';
import { Req } from '../param';

// The body reader (pipeline/read-body.ts) over a real socket: what arrives split, late, short, or too long.
let handled = 0;
const outcomes: number[] = [];

class Api extends router('/') {
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
