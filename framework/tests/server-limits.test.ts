import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, closeGracefully, Get, Post, router, serverUrl } from '../index';
import type { Server } from '../server';
import { Body } from '../param';
import { raw } from './fixtures/raw-socket';

let release: () => void = () => {};
class Api extends router('/') {
  @Get('/ping') ping() { return { pong: true }; }
  @Post('/echo') echo(@Body() body: unknown) { return { body }; }
  @Get('/slow') async slow() {
    await new Promise<void>((resolve) => { release = resolve; });
    return { slow: 'done' };
  }
}

let server: Server;
let port: number;
before(async () => {
  server = await new BaseRouter().includeRouter(new Api()).listen({ host: '127.0.0.1', port: 0, headersTimeout: 300, requestTimeout: 600 });
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

describe('server limits', () => {
  it('answers a URL over 16 KiB with 431 and stays up', async () => {
    const { text } = await raw(port, `GET /ping?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 431/);
    assert.match(text, /content-type: application\/json; charset=utf-8\r\n[^]*\r\n\r\n\{"error":"Request Header Fields Too Large"\}$/i);
    assert.equal((await fetch(`${serverUrl(server)}/ping`)).status, 200);
  });

  it('answers headers over 16 KiB with 431', async () => {
    const { text } = await raw(port, `GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 431/);
  });

  it('answers a garbage request line and conflicting Content-Length with 400', async () => {
    assert.match((await raw(port, 'HELLO THERE\r\n\r\n')).text, /^HTTP\/1\.1 400 Bad Request\r\n[^]*\{"error":"Bad Request"\}$/);
    const conflicting = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 10\r\n\r\n{}';
    assert.match((await raw(port, conflicting)).text, /^HTTP\/1\.1 400/);
    assert.equal((await fetch(`${serverUrl(server)}/ping`)).status, 200);
  });

  it('closes a socket that trickles its headers (slowloris) after headersTimeout', async () => {
    const socket: Socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const started = Date.now();
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    socket.write('GET /ping HTTP/1.1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 50);
    const elapsed = await closed;
    clearInterval(trickle);
    assert.ok(elapsed < 2_000, `closed after ${elapsed} ms`);
  });

  it('answers a body slower than requestTimeout with 408', async () => {
    const { text } = await raw(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":', 3_000);
    assert.match(text, /^HTTP\/1\.1 408[^]*\{"error":"Request Timeout"\}$/);
  });
});

describe('graceful close', () => {
  it('finishes in-flight requests, closes idle keep-alive sockets, refuses new connections', async () => {
    const app = new BaseRouter().includeRouter(new Api());
    const s = await app.listen({ host: '127.0.0.1', port: 0 });
    const base = serverUrl(s);
    assert.equal((await fetch(`${base}/ping`)).status, 200); // leaves an idle keep-alive socket behind
    const inFlight = fetch(`${base}/slow`);
    await new Promise((r) => setTimeout(r, 50));
    const closing = closeGracefully(s, 5_000);
    await assert.rejects(fetch(`${base}/ping`, { headers: { connection: 'close' } }));
    release();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { slow: 'done' });
    assert.equal(await closing, true);
  });

  it('force-closes what is still running after the grace period and reports it', async () => {
    const s = await new BaseRouter().includeRouter(new Api()).listen({ host: '127.0.0.1', port: 0 });
    const inFlight = fetch(`${serverUrl(s)}/slow`).catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await closeGracefully(s, 200), false);
    assert.ok((await inFlight) instanceof Error, 'the unfinished request was cut');
    release();
  });
});
