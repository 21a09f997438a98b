import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync, type ReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BaseRouter, FileResponse, Get, JSONResponse, Middleware, Post, router, type CallNext, type Request, type Response } from '../index';
import { Req } from '../param';
import { capturedLog } from './fixtures/captured-log';
import { getUnread } from './fixtures/http-get';
import { closeServer, startServer } from './fixtures/listening';
import { TestClient } from '../testing';

let dir: string;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const BIG = 24 * 1024 * 1024;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'trellis-file-'));
  writeFileSync(join(dir, 'data.bin'), BYTES);
  writeFileSync(join(dir, 'note.txt'), 'hello file');
  writeFileSync(join(dir, 'empty.txt'), '');
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(BIG, 'trellis'));
  mkdirSync(join(dir, 'folder'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Make = (request: Request) => Response;

/** An app whose `GET /f` and `POST /f` answer `make(request)`, behind `middleware`. */
function serve(make: Make, ...middleware: Middleware[]): BaseRouter {
  class Files extends router('/') {
    @Get('/f') get(@Req() request: Request) { return make(request); }
    @Post('/f') post(@Req() request: Request) { return make(request); }
  }
  return new BaseRouter().includeRouter(Files).addMiddleware(...middleware);
}

const file = (name: string) => join(dir, name);
const client = (make: Make, ...middleware: Middleware[]) => new TestClient(serve(make, ...middleware));

/** A middleware that hands each response it sees (after the handler) to `seen`. */
class Spy extends Middleware {
  constructor(private readonly seen: (response: Response) => void | Promise<void>) { super(); }
  async dispatch(request: Request, callNext: CallNext) {
    const response = await callNext(request);
    await this.seen(response);
    return response;
  }
}

describe('FileResponse', () => {
  it('sends the file with its type, length, Accept-Ranges, a weak ETag and Last-Modified', async () => {
    const res = await client(() => new FileResponse(file('note.txt'))).get('/f');
    const { size, mtime } = statSync(file('note.txt'));
    assert.equal(res.status, 200);
    assert.equal(res.text, 'hello file');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['content-length'], String(size));
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers.etag, `W/"${size.toString(16)}-${mtime.getTime().toString(16)}"`);
    assert.equal(res.headers['last-modified'], mtime.toUTCString());
    assert.equal(res.headers['cache-control'], undefined, 'no caching unless asked');
    assert.equal(res.headers['content-disposition'], undefined);

    const bin = await client(() => new FileResponse(file('data.bin'))).get('/f');
    assert.equal(bin.headers['content-type'], 'application/octet-stream');
    assert.deepEqual(bin.body, BYTES);
    const empty = await client(() => new FileResponse(file('empty.txt'))).get('/f');
    assert.equal(empty.status, 200);
    assert.equal(empty.headers['content-length'], '0');
    assert.equal(empty.text, '');
  });

  it('keeps the status-independent headers it was given (a content type of its own)', async () => {
    const res = await client(() => new FileResponse(file('note.txt'), { headers: { 'content-type': 'text/markdown', 'x-kind': 'note' } })).get('/f');
    assert.equal(res.headers['content-type'], 'text/markdown');
    assert.equal(res.headers['x-kind'], 'note');
    assert.equal(res.text, 'hello file');
  });

  it('answers 304 without a body to If-None-Match and If-Modified-Since, 200 when the file changed', async () => {
    const c = client(() => new FileResponse(file('note.txt')));
    const first = await c.get('/f');
    const etag = String(first.headers.etag);
    const modified = String(first.headers['last-modified']);

    for (const headers of <Array<Record<string, string>>>[{ 'if-none-match': etag }, { 'if-none-match': `"other", ${etag}` }, { 'if-none-match': '*' }, { 'if-modified-since': modified }]) {
      const res = await c.get('/f', { headers });
      assert.equal(res.status, 304, JSON.stringify(headers));
      assert.equal(res.body.length, 0);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['content-type'], undefined);
      assert.equal(res.headers['content-length'], undefined);
    }
    const stale = await c.get('/f', { headers: { 'if-none-match': 'W/"0-0"' } });
    assert.equal(stale.status, 200);
    assert.equal(stale.text, 'hello file');
    const older = await c.get('/f', { headers: { 'if-modified-since': new Date(Date.parse(modified) - 60_000).toUTCString() } });
    assert.equal(older.status, 200);
    // If-None-Match wins over If-Modified-Since (RFC 9110 13.1.3).
    const both = await c.get('/f', { headers: { 'if-none-match': 'W/"0-0"', 'if-modified-since': modified } });
    assert.equal(both.status, 200);
  });

  it('answers 206 with the bytes of one range, whatever its form', async () => {
    const c = client(() => new FileResponse(file('data.bin')));
    const cases: Array<[string, number, number]> = [['bytes=0-9', 0, 9], ['bytes=990-', 990, 999], ['bytes=-5', 995, 999], ['bytes=500-500', 500, 500], ['bytes=900-5000', 900, 999]];
    for (const [range, start, end] of cases) {
      const res = await c.get('/f', { headers: { range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/1000`, range);
      assert.equal(res.headers['content-length'], String(end - start + 1), range);
      assert.deepEqual(res.body, BYTES.subarray(start, end + 1), range);
    }
    // Several ranges: the whole file (send does not build multipart/byteranges).
    const several = await c.get('/f', { headers: { range: 'bytes=0-1,5-6' } });
    assert.equal(several.status, 200);
    assert.deepEqual(several.body, BYTES);
    // A Range of another unit, or a stale If-Range: the whole file.
    assert.equal((await c.get('/f', { headers: { range: 'items=0-1' } })).status, 200);
    assert.equal((await c.get('/f', { headers: { range: 'bytes=0-1', 'if-range': '"stale"' } })).status, 200);
    const fresh = await c.get('/f');
    assert.equal((await c.get('/f', { headers: { range: 'bytes=0-1', 'if-range': String(fresh.headers.etag) } })).status, 206);
  });

  it('answers 416 JSON with Content-Range when no range can be met', async () => {
    const c = client(() => new FileResponse(file('data.bin')));
    for (const range of ['bytes=1000-1001', 'bytes=5000-']) {
      const res = await c.get('/f', { headers: { range } });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers['content-range'], 'bytes */1000');
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.json(), { error: 'Range Not Satisfiable' });
    }
  });

  it('ignores an invalid Range, as RFC 9110 asks: 200 with the whole file', async () => {
    const c = client(() => new FileResponse(file('data.bin')));
    for (const range of ['bytes=abc', 'bytes=', 'bytes=5-1', 'bytes=1-2-3', 'bytes=0-1,x', 'bytes=--5', 'bytes=0x10-']) {
      const res = await c.get('/f', { headers: { range } });
      assert.equal(res.status, 200, range);
      assert.equal(res.headers['content-range'], undefined, range);
      assert.equal(res.headers['accept-ranges'], 'bytes', range);
      assert.deepEqual(res.body, BYTES, range);
    }
    // Well-formed, with OWS and an empty element: still one range.
    const spaced = await c.get('/f', { headers: { range: 'bytes= 0-9 ,' } });
    assert.deepEqual([spaced.status, spaced.headers['content-range']], [206, 'bytes 0-9/1000']);
    // A well-formed range the file cannot meet stays a 416.
    assert.equal((await c.get('/f', { headers: { range: 'bytes=-0' } })).status, 416);
  });

  it('answers 412 JSON when If-Match or If-Unmodified-Since fails, and serves when they hold', async () => {
    const c = client(() => new FileResponse(file('note.txt')));
    const { headers } = await c.get('/f');
    const mismatch = await c.get('/f', { headers: { 'if-match': '"nope"' } });
    assert.equal(mismatch.status, 412);
    assert.deepEqual(mismatch.json(), { error: 'Precondition Failed' });
    const past = await c.get('/f', { headers: { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    assert.equal(past.status, 412);
    assert.equal((await c.get('/f', { headers: { 'if-match': String(headers.etag) } })).status, 200);
    assert.equal((await c.get('/f', { headers: { 'if-match': '*' } })).status, 200);
  });

  it('answers HEAD with the headers of GET and no body, ranges included', async () => {
    const c = client(() => new FileResponse(file('data.bin')));
    const head = await c.head('/f');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], '1000');
    assert.ok(head.headers.etag);
    const ranged = await c.head('/f', { headers: { range: 'bytes=0-9' } });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers['content-length'], '10');
    assert.equal(ranged.body.length, 0);
  });

  it('ranges and validators are GET/HEAD matters: a POST answered with a file gets all of it', async () => {
    const res = await client(() => new FileResponse(file('data.bin'))).post('/f', { headers: { range: 'bytes=0-9' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, BYTES);
    assert.equal(res.headers['accept-ranges'], undefined);
  });

  it('answers a missing file, a directory or a bad path with JSON 404 that names no path', async () => {
    for (const name of ['missing.txt', 'folder', 'note.txt/inside', 'x'.repeat(5000)]) {
      const res = await client(() => new FileResponse(file(name))).get('/f');
      assert.equal(res.status, 404, name.slice(0, 20));
      assert.deepEqual(res.json(), { error: 'Not Found' });
      assert.ok(!res.text.includes(dir));
    }
  });

  it('answers a FIFO or a device with 404 at once (opening a FIFO would block a thread)', async () => {
    execFileSync('mkfifo', [file('pipe')]);
    for (const path of [file('pipe'), '/dev/null', '/dev/zero']) {
      const res = await client(() => new FileResponse(path)).get('/f');
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.json(), { error: 'Not Found' });
    }
  });

  it('answers a file that cannot be read with a 500 that names no path, and logs the cause', async () => {
    symlinkSync('loop', file('loop'));
    const { logger, lines: logged } = capturedLog();
    class Files extends router('/') {
      @Get('/f') get() { return new FileResponse(file('loop')); }
    }
    const app = new BaseRouter({ logger }).includeRouter(Files);
    const res = await new TestClient(app).get('/f');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.equal(logged[0].err?.code, 'ELOOP');
  });

  it('lets middleware see the real status and headers: 206, 304, 404', async () => {
    const seen: Array<[number, string | undefined]> = [];
    const spy = new Spy((response) => void seen.push([response.status, response.headers.get('content-range')]));
    const c = client(() => new FileResponse(file('data.bin')), spy);
    const etag = String((await c.get('/f')).headers.etag);
    await c.get('/f', { headers: { range: 'bytes=10-19' } });
    await c.get('/f', { headers: { 'if-none-match': etag } });
    await c.get('/f', { headers: { range: 'bytes=9999-' } });
    await client(() => new FileResponse(file('gone.txt')), spy).get('/f');
    assert.deepEqual(seen, [[200, undefined], [206, 'bytes 10-19/1000'], [304, undefined], [416, 'bytes */1000'], [404, undefined]]);
  });

  it('sets Cache-Control from maxAge (milliseconds or a string) and immutable', async () => {
    const cache = async (options: ConstructorParameters<typeof FileResponse>[1]) =>
      (await client(() => new FileResponse(file('note.txt'), options)).get('/f')).headers['cache-control'];
    assert.equal(await cache({ maxAge: 3_600_000 }), 'public, max-age=3600');
    assert.equal(await cache({ maxAge: '1d', immutable: true }), 'public, max-age=86400, immutable');
    assert.equal(await cache({ maxAge: 0 }), 'public, max-age=0');
    assert.equal(await cache({ immutable: true }), undefined, 'immutable means nothing without maxAge');
    assert.equal(await cache({ maxAge: 60_000, headers: { 'cache-control': 'no-store' } }), 'no-store', 'headers given win');
  });

  it('sends a file removed after the response was settled in full (it is open by then)', async () => {
    writeFileSync(file('doomed.txt'), 'still here');
    const removeFirst = new Spy(() => unlinkSync(file('doomed.txt')));
    const res = await client(() => new FileResponse(file('doomed.txt')), removeFirst).get('/f');
    assert.equal(res.status, 200);
    assert.equal(res.text, 'still here');
    assert.equal(res.headers['content-length'], '10');
  });
});

describe('FileResponse over a real socket', () => {
  const request = getUnread;

  it('streams a big file with backpressure: a reader that stops holds the file back, then gets every byte', async () => {
    let body: ReadStream | undefined;
    const grab = new Spy((response) => void (body = response.body as ReadStream));
    const { server, port } = await startServer(serve(() => new FileResponse(file('big.bin')), grab));
    try {
      const res = await request(port, '/f');
      res.pause();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Loopback socket buffers hold a few MiB; the rest of the file stays on disk until the client reads.
      assert.ok(body!.bytesRead < BIG / 2, `${body!.bytesRead} of ${BIG} bytes read from disk while the client read nothing`);
      const hash = createHash('sha256');
      let length = 0;
      for await (const chunk of res) {
        hash.update(chunk);
        length += chunk.length;
      }
      assert.equal(length, BIG);
      assert.equal(hash.digest('hex'), createHash('sha256').update(Buffer.alloc(BIG, 'trellis')).digest('hex'));
      assert.equal(res.headers['content-length'], String(BIG));
    } finally {
      await closeServer(server);
    }
  });

  it('closes the file of a response a middleware replaced (no descriptor left open)', async () => {
    const bodies: ReadStream[] = [];
    class Replace extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        bodies.push((await callNext(request)).body as ReadStream);
        return new JSONResponse({ replaced: true });
      }
    }
    const { server, port } = await startServer(serve(() => new FileResponse(file('note.txt')), new Replace()));
    try {
      const openFiles = () => readdirSync('/proc/self/fd').length;
      const before = openFiles();
      for (let i = 0; i < 20; i++) assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/f`)).json(), { replaced: true });
      await sleep(50);
      assert.equal(bodies.length, 20);
      assert.ok(bodies.every((body) => body.destroyed && body.closed), 'every file closed');
      assert.ok(openFiles() - before < 5, `${openFiles() - before} more descriptors open`);
    } finally {
      await closeServer(server);
    }
  });

  it('closes the file when the client goes away half-way', async () => {
    let body: ReadStream | undefined;
    const grab = new Spy((response) => void (body = response.body as ReadStream));
    const { server, port } = await startServer(serve(() => new FileResponse(file('big.bin')), grab));
    try {
      const res = await request(port, '/f');
      await new Promise((resolve) => res.once('data', resolve));
      res.destroy();
      await new Promise<void>((resolve) => (body!.closed ? resolve() : body!.once('close', () => resolve())));
      assert.ok(body!.bytesRead < BIG, 'stopped before the end');
      assert.equal(body!.destroyed, true);
      assert.equal((await fetch(`http://127.0.0.1:${port}/f`, { method: 'HEAD' })).status, 200, 'serves on');
    } finally {
      await closeServer(server);
    }
  });
});
