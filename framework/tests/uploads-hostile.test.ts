import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { BaseRouter, Post, Request, router } from '../index';
import type { Server } from '../server';
import { Req, UploadedFile } from '../param';
import { TestClient } from '../testing';
import { silentLogger } from './fixtures/captured-log';
import { BOUNDARY, file, multipart } from './fixtures/uploads/multipart';

const seen: Array<{ path: string | undefined; existed: boolean; inMemory: boolean; same: boolean }> = [];

class UploadRouter extends router('/upload') {
  @Post('/file')
  async upload(@UploadedFile('file') upload: UploadedFile | undefined) {
    if (!upload) return [{ error: 'No file uploaded' }, 400];
    const bytes = await upload.bytes();
    let streamed = 0;
    for await (const chunk of upload.stream()) streamed += (chunk as Buffer).length;
    const same = bytes.length === upload.size && streamed === upload.size;
    seen.push({ path: upload.path, existed: !!upload.path && existsSync(upload.path), inMemory: !!upload.buffer, same });
    return { filename: upload.filename, size: upload.size };
  }

  @Post('/fails')
  fails(@UploadedFile('file') upload: UploadedFile | undefined) {
    throw new Error(`handler failed with ${upload?.size} bytes`);
  }

  @Post('/form')
  async form(@Req() request: Request) {
    const form = await request.form();
    return { fields: Object.keys(form.fields).length, files: form.files.length };
  }
}

// Every temporary file goes to this process's temp dir: an empty one per test shows what was left behind.
const saved = process.env.TMPDIR;
const base = tmpdir();
let sandbox: string;
beforeEach(() => {
  sandbox = mkdtempSync(join(base, 'trellis-hostile-'));
  process.env.TMPDIR = sandbox;
  seen.length = 0;
});
afterEach(() => rmSync(sandbox, { recursive: true, force: true }));
after(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});
const leftovers = () => readdirSync(sandbox);

const app = new BaseRouter({ logger: silentLogger() }).includeRouter(UploadRouter);
let server: Server;
let port: number;
before(async () => {
  server = await app.listen({ host: '127.0.0.1', port: 0, bodyTimeout: 300 });
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

interface Upload {
  socket: Socket;
  /** What the server sent so far. */
  received(): string;
  /** Everything the server sent, once it closed the socket. */
  closed: Promise<string>;
}

/** Opens a multipart POST announcing `total` body bytes; the caller writes (part of) the body. */
function startUpload(path: string, total: number): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${total}\r\n\r\n`,
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', () => {});
      resolve({ socket, received: () => text, closed: new Promise((done) => socket.once('close', () => done(text))) });
    });
  });
}

/** Waits (polling) until `check()` holds; the test's own timeout ends a wait that never would. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Sends only the first `sent` bytes of `body`, never the rest, and returns the response the server gives meanwhile. */
async function sendStartOf(path: string, body: Buffer, sent: number): Promise<string> {
  const upload = await startUpload(path, body.length);
  upload.socket.write(body.subarray(0, sent));
  await until(() => /\r\n\r\n\{[^]*\}$/.test(upload.received()));
  upload.socket.destroy();
  return upload.received();
}

describe('parts a route does not declare', () => {
  it('refuses a second file in a one-file field as it starts, while the client is still sending', { timeout: 15_000 }, async () => {
    const body = multipart([file('file', 'a.bin', 'small'), file('file', 'b.bin', Buffer.alloc(8 * 1024 * 1024, 1))]).body;
    const text = await sendStartOf('/upload/file', body, 256 * 1024);
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /\{"error":"Field \\"file\\" takes one file, got 2"\}$/);
  });

  it('refuses a file in a field no @UploadedFile names as it starts', { timeout: 15_000 }, async () => {
    const body = multipart([file('avatar', 'a.bin', Buffer.alloc(8 * 1024 * 1024, 1))]).body;
    assert.match(await sendStartOf('/upload/file', body, 256 * 1024), /^HTTP\/1\.1 400 [^]*\{"error":"Unexpected file field \\"avatar\\""\}$/);
  });

  it('drops text fields a file-only route cannot read, and refuses more than fieldsSize of them as they arrive', { timeout: 15_000 }, async () => {
    const c = new TestClient(app);
    const small = multipart([{ name: 'note', value: 'hi' }, file('file', 'a.txt', 'abc')]);
    assert.deepEqual((await c.post('/upload/file', { body: small.body, headers: small.headers })).json(), { filename: 'a.txt', size: 3 });

    const fields = Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, value: 'v'.repeat(1024 * 1024 - 8) }));
    const body = multipart([...fields, file('file', 'a.txt', 'abc')]).body;
    const text = await sendStartOf('/upload/file', body, 3 * 1024 * 1024);
    assert.match(text, /^HTTP\/1\.1 413 [^]*\{"error":"Form fields are larger than 1048576 bytes in all"\}$/);
  });

  it('bounds the text fields of request.form() by fieldsSize (1 MiB by default, configurable)', { timeout: 15_000 }, async () => {
    const twoHalves = multipart([{ name: 'a', value: 'x'.repeat(600 * 1024) }, { name: 'b', value: 'y'.repeat(600 * 1024) }]);
    const res = await new TestClient(app).post('/upload/form', { body: twoHalves.body, headers: twoHalves.headers });
    assert.equal(res.status, 413);
    assert.deepEqual(res.json(), { error: 'Form fields are larger than 1048576 bytes in all' });
    const roomy = new TestClient(new BaseRouter({ uploads: { fieldsSize: 2 * 1024 * 1024 } }).includeRouter(UploadRouter));
    assert.deepEqual((await roomy.post('/upload/form', { body: twoHalves.body, headers: twoHalves.headers })).json(), { fields: 2, files: 0 });
  });
});

describe('large files go to a temporary file that is always removed', () => {
  it('keeps a file up to memorySize in memory and writes a larger one to a temporary file, removed after the response', { timeout: 15_000 }, async () => {
    const c = new TestClient(app);
    const small = multipart([file('file', 'small.bin', randomBytes(1024 * 1024))]);
    assert.equal((await c.post('/upload/file', { body: small.body, headers: small.headers })).status, 200);
    const big = multipart([file('file', 'big.bin', randomBytes(3 * 1024 * 1024))]);
    assert.deepEqual((await c.post('/upload/file', { body: big.body, headers: big.headers })).json(), { filename: 'big.bin', size: 3 * 1024 * 1024 });
    assert.deepEqual(seen.map(({ inMemory, existed, same }) => ({ inMemory, existed, same })), [
      { inMemory: true, existed: false, same: true },
      { inMemory: false, existed: true, same: true },
    ]);
    assert.ok(seen[1].path!.startsWith(sandbox), 'in the temp directory');
    await until(() => leftovers().length === 0);
  });

  it('removes it when the handler throws and when the file is over the limit', { timeout: 15_000 }, async () => {
    const c = new TestClient(new BaseRouter({ logger: silentLogger(), uploads: { fileSize: 2 * 1024 * 1024 } }).includeRouter(UploadRouter));
    const big = multipart([file('file', 'big.bin', Buffer.alloc(3 * 1024 * 1024, 1))]);
    assert.equal((await c.post('/upload/file', { body: big.body, headers: big.headers })).status, 413);
    await until(() => leftovers().length === 0);
    const fits = multipart([file('file', 'fits.bin', Buffer.alloc(1536 * 1024, 1))]);
    assert.equal((await c.post('/upload/fails', { body: fits.body, headers: fits.headers })).status, 500);
    await until(() => leftovers().length === 0);
  });

  it('removes it when the client disconnects mid-upload', { timeout: 15_000 }, async () => {
    const body = multipart([file('file', 'big.bin', Buffer.alloc(8 * 1024 * 1024, 1))]).body;
    const { socket } = await startUpload('/upload/file', body.length);
    socket.write(body.subarray(0, 3 * 1024 * 1024));
    await until(() => leftovers().length === 1); // spilled to disk
    socket.destroy();
    await until(() => leftovers().length === 0);
  });

  it('answers 408 to an upload that stops arriving, closes the socket and removes the file', { timeout: 15_000 }, async () => {
    const body = multipart([file('file', 'big.bin', Buffer.alloc(8 * 1024 * 1024, 1))]).body;
    const { socket, closed } = await startUpload('/upload/file', body.length);
    socket.write(body.subarray(0, 2 * 1024 * 1024));
    const text = await closed;
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\{"error":"Request Timeout"\}$/);
    await until(() => leftovers().length === 0);
  });
});
