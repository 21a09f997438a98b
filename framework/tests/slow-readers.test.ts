import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { BaseRouter, Get, Post, Request, router } from '../index';
import type { Server } from '../server';
import { listen } from '../server';
import { Req } from '../param';

const BIG = 'x'.repeat(16 * 1024 * 1024);

class Api extends router('/') {
  @Get('/big') big() { return { data: BIG }; }
  @Get('/small') small() { return { ok: true }; }
  @Get('/slow') async slow() {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { data: BIG.slice(0, 1024) };
  }
  @Post('/echo') async echo(@Req() request: Request) { return { length: (await request.body()).length }; }
  // The socket's idle timer while the handler runs (0 when none is armed).
  @Get('/timer') timer(@Req() request: Request) { return { timeout: request.raw.socket.timeout ?? 0 }; }
}

// A static file is streamed (Express, `send`), not written at once: the same timeout must cover it.
const assets = mkdtempSync(join(tmpdir(), 'trellis-slow-readers-'));
writeFileSync(join(assets, 'big.bin'), Buffer.alloc(16 * 1024 * 1024, 1));
const app = new BaseRouter().includeRouter(Api).mountStatic('/static', assets);
let server: Server;
let port: number;
after(() => rmSync(assets, { recursive: true, force: true }));
before(async () => {
  server = await app.listen({ host: '127.0.0.1', port: 0, sendTimeout: 300, bodyTimeout: 300 });
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

function open(to = port): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** Reads a whole `Connection: close` response, a chunk every `pauseMs`. */
function readSlowly(socket: Socket, pauseMs: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    socket.pause();
    setTimeout(() => socket.resume(), pauseMs);
  });
  socket.resume();
  return closed(socket).then(() => Buffer.concat(chunks));
}

/** The first bytes the server sends on `socket`. */
function firstBytes(socket: Socket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    socket.once('data', resolve);
    socket.once('close', () => reject(new Error('closed before any answer')));
  });
}

describe('sendTimeout (a client that stops reading)', () => {
  it('destroys the socket of a client that never reads a large response', { timeout: 15_000 }, async () => {
    const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = await open();
    socket.on('error', () => {});
    socket.pause(); // never reads: the server's writes stop once the socket buffers are full
    socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed(await serverSide);
    // What the kernels had buffered still arrives, then the end: the response was cut short.
    const received = await readSlowly(socket, 0);
    assert.match(received.toString('latin1', 0, 12), /^HTTP\/1\.1 200/);
    assert.ok(received.length < BIG.length, `${received.length} bytes of ${BIG.length}`);
    assert.equal((await fetch(`http://127.0.0.1:${port}/small`)).status, 200, 'the server serves on');
  });

  it('destroys the socket of a client that never reads a streamed static file', { timeout: 15_000 }, async () => {
    const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = await open();
    socket.on('error', () => {});
    socket.pause();
    socket.write('GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed(await serverSide);
    const received = await readSlowly(socket, 0);
    assert.match(received.toString('latin1', 0, 12), /^HTTP\/1\.1 200/);
    assert.ok(received.length < 16 * 1024 * 1024, `${received.length} bytes`);
  });

  it('destroys the socket of a client that never reads a response Express middleware streams by itself', { timeout: 15_000 }, async () => {
    const withExpress = new BaseRouter().includeRouter(Api);
    withExpress.addMiddleware((req: { url: string }, res: NodeJS.WritableStream, next: () => void) =>
      req.url === '/raw' ? createReadStream(join(assets, 'big.bin')).pipe(res) : next());
    const other = await listen(withExpress.handler, { host: '127.0.0.1', port: 0, sendTimeout: 300 });
    try {
      const serverSide = new Promise<Socket>((resolve) => other.once('connection', resolve));
      const socket = await open((other.address() as AddressInfo).port);
      socket.on('error', () => {});
      socket.pause();
      socket.write('GET /raw HTTP/1.1\r\nHost: x\r\n\r\n');
      await closed(await serverSide);
      const received = await readSlowly(socket, 0);
      assert.ok(received.length < 16 * 1024 * 1024, `${received.length} bytes`);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('lets a slow reader that keeps reading finish a download longer than the timeout', async () => {
    // Progress shows each time the kernel takes more bytes, after its send buffer (MiBs on loopback) drained
    // by a third: the reader below takes ~5 s in all and moves that much well within 2 s.
    const patient = await listen(app.handler, { host: '127.0.0.1', port: 0, sendTimeout: 2_000 });
    try {
      const socket = await open((patient.address() as AddressInfo).port);
      socket.write('GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const text = (await readSlowly(socket, 20)).toString('latin1');
      assert.match(text, /^HTTP\/1\.1 200/);
      assert.equal(text.length - text.indexOf('\r\n\r\n') - 4, JSON.stringify({ data: BIG }).length, 'the whole body arrived');
    } finally {
      await new Promise((resolve) => patient.close(resolve));
    }
  });

  it('arms no timer for a response the kernel takes at once: not when a request arrives, not when it is written', async () => {
    const socket = await open();
    try {
      const texts: string[] = [];
      socket.on('data', (chunk: Buffer) => texts.push(chunk.toString()));
      for (let i = 0; i < 3; i++) {
        socket.write('GET /timer HTTP/1.1\r\nHost: x\r\n\r\n');
        while (!texts.join('').endsWith('}')) await new Promise((resolve) => setTimeout(resolve, 5));
        assert.match(texts.join(''), /^HTTP\/1\.1 200[^]*\r\n\r\n\{"timeout":0\}$/, `request ${i + 1} on the socket`);
        texts.length = 0;
      }
    } finally {
      socket.destroy();
    }
  });

  it('does not time out a handler that takes longer than the timeout to answer', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/slow`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { data: string }).data.length, 1024);
  });
});

describe('sendTimeout and idle sockets', () => {
  it('leaves a socket that has sent nothing yet to headersTimeout, even past sendTimeout, and serves it', async () => {
    const socket = await open();
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(socket.destroyed, false);
    socket.write('GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const text = (await readSlowly(socket, 0)).toString();
    assert.match(text, /^HTTP\/1\.1 200/);
  });

  it('still closes a keep-alive socket idle past keepAliveTimeout after its response', { timeout: 15_000 }, async () => {
    const keepAlive = await listen(app.handler, { host: '127.0.0.1', port: 0, sendTimeout: 5_000, keepAliveTimeout: 200 });
    try {
      const socket = await open((keepAlive.address() as AddressInfo).port);
      const started = Date.now();
      socket.write('GET /small HTTP/1.1\r\nHost: x\r\n\r\n');
      const text = (await readSlowly(socket, 0)).toString();
      assert.match(text, /^HTTP\/1\.1 200/);
      // Node's keep-alive timer is keepAliveTimeout + 1 s; well before sendTimeout.
      assert.ok(Date.now() - started < 4_000, `closed after ${Date.now() - started} ms`);
    } finally {
      keepAlive.closeAllConnections();
      await new Promise((resolve) => keepAlive.close(resolve));
    }
  });
});

describe('bodyTimeout (a body that stops arriving)', () => {
  it('answers 408 {error} and closes the socket when the body stops arriving', { timeout: 15_000 }, async () => {
    const socket = await open();
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n' + 'a'.repeat(100));
    const text = (await readSlowly(socket, 0)).toString();
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(text, /\r\nconnection: close\r\n/i);
    assert.match(text, /\r\nx-request-id: \S+\r\n/i);
    assert.ok(text.endsWith('\r\n\r\n{"error":"Request Timeout"}'), text);
  });

  it('lets a body that keeps arriving, slower than the timeout in all, through', async () => {
    const socket = await open();
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n');
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      socket.write('a');
    }
    const text = (await readSlowly(socket, 0)).toString();
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.ok(text.endsWith('{"length":10}'), text);
  });

  it('watches no body that came with its headers: a JSON POST in one packet starts no timer', async () => {
    const socket = await open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const intervals = mock.method(globalThis, 'setInterval');
    try {
      socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n' + 'a'.repeat(10));
      const text = (await readSlowly(socket, 0)).toString();
      assert.ok(text.endsWith('{"length":10}'), text);
      assert.deepEqual(intervals.mock.calls.map((call) => call.arguments[1]), []);
    } finally {
      intervals.mock.restore();
    }
  });
});

describe('maxConnections', () => {
  it('closes connections above the cap as they arrive and serves those it has', { timeout: 15_000 }, async () => {
    const capped = await listen(app.handler, { host: '127.0.0.1', port: 0, maxConnections: 2 });
    const cappedPort = (capped.address() as AddressInfo).port;
    try {
      const first = await open(cappedPort);
      const second = await open(cappedPort);
      await new Promise((resolve) => setTimeout(resolve, 50)); // both accepted by the server
      const third = await open(cappedPort);
      third.on('error', () => {});
      third.write('GET /small HTTP/1.1\r\nHost: x\r\n\r\n');
      const answer = await readSlowly(third, 0);
      assert.equal(answer.length, 0, 'the third connection was closed without an answer');

      first.write('GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match((await readSlowly(first, 0)).toString(), /^HTTP\/1\.1 200[^]*\{"ok":true\}$/);
      second.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const later = await open(cappedPort);
      later.write('GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match((await readSlowly(later, 0)).toString(), /^HTTP\/1\.1 200/, 'a place freed is taken again');
    } finally {
      capped.closeAllConnections();
      await new Promise((resolve) => capped.close(resolve));
    }
  });

  it('caps connections at 1,000 by default', { timeout: 60_000 }, async () => {
    const plain = await listen(app.handler, { host: '127.0.0.1', port: 0 });
    const port = (plain.address() as AddressInfo).port;
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 1_000; i++) held.push(await open(port));
      // The last one held is served: the server has taken every one of them.
      held[999].write('GET /small HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match((await firstBytes(held[999])).toString(), /^HTTP\/1\.1 200/);
      const over = await open(port);
      over.on('error', () => {});
      over.write('GET /small HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal((await readSlowly(over, 0)).length, 0, 'the 1,001st connection was closed without an answer');
    } finally {
      for (const socket of held) socket.destroy();
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

});
