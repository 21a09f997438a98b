import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { BaseRouter, Middleware, Post, Request, router, type CallNext } from '../index';
import type { AppOptions } from '../app';
import { Req, UploadedFile } from '../param';
import { TestClient, type TestResponse } from '../testing';
import { BOUNDARY, file, many, multipart, type Part } from './fixtures/uploads/multipart';

let handled = 0;

class UploadRouter extends router('/upload') {
  @Post('/file')
  upload(@UploadedFile('file') upload: UploadedFile | undefined) {
    handled++;
    if (!upload) return [{ error: 'No file uploaded' }, 400];
    return { filename: upload.filename, size: upload.size };
  }

  @Post('/form')
  async form(@Req() request: Request) {
    handled++;
    const form = await request.form();
    return { fields: Object.keys(form.fields).length, files: form.files.length };
  }
}

const client = (options: AppOptions = {}) => new TestClient(new BaseRouter(options).includeRouter(UploadRouter));
const send = (c: TestClient, path: string, parts: Part[]) => {
  const form = multipart(parts);
  return c.post(path, { body: form.body, headers: form.headers });
};
const raw = (c: TestClient, path: string, body: string | Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
  c.post(path, { body, headers: { 'content-type': contentType } });

/** A 4xx JSON `{error}` with no stack, path or HTML. */
function assertError(res: TestResponse, status: number, message?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  if (message) assert.match(body.error, message);
  assert.doesNotMatch(res.text, /\/work\/|node_modules|at .+:\d+|<html/i);
}

describe('upload limits (413)', () => {
  it('takes a file of exactly 10 MiB by default and refuses one byte more', async () => {
    const c = client();
    const limit = 10 * 1024 * 1024;
    const ok = await send(c, '/upload/file', [file('file', 'max.bin', Buffer.alloc(limit, 1))]);
    assert.deepEqual(ok.json(), { filename: 'max.bin', size: limit });
    assertError(await send(c, '/upload/file', [file('file', 'big.bin', Buffer.alloc(limit + 1, 1))]), 413, /larger than 10485760 bytes/);
  });

  it('takes 10 files and 100 fields by default, refusing the 11th file and the 101st field', async () => {
    const c = client();
    const tenFiles = many(10, (i) => file(`f${i}`, `${i}.txt`, 'x'));
    assert.deepEqual((await send(c, '/upload/form', tenFiles)).json(), { fields: 0, files: 10 });
    assertError(await send(c, '/upload/form', [...tenFiles, file('f10', '10.txt', 'x')]), 413, /Too many files: at most 10/);

    const hundredFields = many(100, (i) => ({ name: `k${i}`, value: 'v' }));
    assert.deepEqual((await send(c, '/upload/form', hundredFields)).json(), { fields: 100, files: 0 });
    assertError(await send(c, '/upload/form', [...hundredFields, { name: 'k100', value: 'v' }]), 413, /Too many fields: at most 100/);
  });

  it('uses the limits given to the app', async () => {
    const c = client({ uploads: { fileSize: 1024, files: 2, fields: 3, fieldSize: 10 } });
    assert.deepEqual((await send(c, '/upload/file', [file('file', 'a', Buffer.alloc(1024))])).json(), { filename: 'a', size: 1024 });
    assertError(await send(c, '/upload/file', [file('file', 'a', Buffer.alloc(1025))]), 413, /1024 bytes/);
    assertError(await send(c, '/upload/form', many(3, (i) => file(`f${i}`, 'a', 'x'))), 413, /at most 2/);
    assertError(await send(c, '/upload/form', many(4, (i) => ({ name: `k${i}`, value: 'v' }))), 413, /at most 3/);
    assert.equal((await send(c, '/upload/form', [{ name: 'k', value: '0123456789' }])).status, 200);
    assertError(await send(c, '/upload/form', [{ name: 'k', value: '01234567890' }]), 413, /Field value is larger than 10 bytes/);
  });

  it('refuses a urlencoded body of more than 1,000 fields or larger than the body limit', async () => {
    const c = client({ bodyLimit: 64 * 1024 });
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');
    const urlencoded = 'application/x-www-form-urlencoded';
    assert.deepEqual((await raw(c, '/upload/form', pairs(1000), urlencoded)).json(), { fields: 1000, files: 0 });
    assertError(await raw(c, '/upload/form', pairs(1001), urlencoded), 413, /at most 1000/);
    assertError(await raw(c, '/upload/form', `k=${'x'.repeat(64 * 1024)}`, urlencoded), 413);
  });

  it('answers 413 on a real socket while the client is still sending, and keeps serving', async () => {
    const app = new BaseRouter({ uploads: { fileSize: 1024 } }).includeRouter(UploadRouter);
    const server = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = server.address() as AddressInfo;
      const form = multipart([file('file', 'big.bin', Buffer.alloc(4 * 1024 * 1024, 7))]);
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/upload/file', headers: form.headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end(form.body);
      });
      assert.equal(status, 413);
      assert.deepEqual(JSON.parse(body), { error: 'File is larger than 1024 bytes' });
      const after = await fetch(`http://127.0.0.1:${port}/upload/file`, { method: 'POST', ...multipart([file('file', 'a', 'ok')]) });
      assert.deepEqual(await after.json(), { filename: 'a', size: 2 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('aborted uploads', () => {
  it('drops an upload whose client disconnects mid-body without calling the handler, and keeps serving', async () => {
    const outcomes: number[] = [];
    class Outcome extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        outcomes.push(response.status);
        return response;
      }
    }
    const app = new BaseRouter().includeRouter(UploadRouter).addMiddleware(Outcome);
    const server = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = server.address() as AddressInfo;
      const before = handled;
      const body = multipart([file('file', 'big.bin', Buffer.alloc(1024 * 1024, 7))]).body;
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /upload/file HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, 64 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(handled, before, 'the handler never ran');
      assert.deepEqual(outcomes, [400], 'the parse ended with "Request aborted" instead of waiting forever');
      const after = await fetch(`http://127.0.0.1:${port}/upload/file`, { method: 'POST', ...multipart([file('file', 'a', 'ok')]) });
      assert.deepEqual(await after.json(), { filename: 'a', size: 2 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('malformed uploads (400)', () => {
  it('refuses a file in a field the handler does not name, or two files in its field', async () => {
    const c = client();
    const before = handled;
    assertError(await send(c, '/upload/file', [file('avatar', 'a.png', 'x')]), 400, /Unexpected file field "avatar"/);
    assertError(await send(c, '/upload/file', [file('file', 'a', 'x'), file('file', 'b', 'y')]), 400, /takes one file, got 2/);
    assert.equal(handled, before, 'the handler never ran');
  });

  it('refuses truncated bodies', async () => {
    const c = client();
    const whole = multipart([{ name: 'title', value: 'x' }, file('file', 'a.txt', 'hello world')]).body;
    const cuts = [whole.length - 5, whole.indexOf('hello') + 3, whole.indexOf('Content-Disposition') + 10, 10];
    for (const cut of cuts) assertError(await raw(c, '/upload/file', whole.subarray(0, cut)), 400, /Malformed multipart body/);
    assertError(await raw(c, '/upload/file', ''), 400, /Malformed multipart body/);
  });

  it('refuses a multipart content type without a boundary, and broken part headers', async () => {
    const c = client();
    const body = multipart([file('file', 'a.txt', 'x')]).body;
    assertError(await raw(c, '/upload/file', body, 'multipart/form-data'), 400, /no boundary/);
    assertError(await raw(c, '/upload/file', body, 'multipart/form-data; boundary='), 400);
    const badHeader = `--${BOUNDARY}\r\nContent-Disposition form-data name\r\n\r\nx\r\n--${BOUNDARY}--\r\n`;
    assertError(await raw(c, '/upload/file', badHeader), 400, /Malformed multipart body/);
    const noName = multipart([{ value: 'x', filename: 'a.txt' }]);
    assertError(await c.post('/upload/file', { body: noName.body, headers: noName.headers }), 400, /no field name/);
  });

  it('refuses bodies that are not a form', async () => {
    const c = client();
    assertError(await c.post('/upload/file', { json: { file: 'x' } }), 400, /multipart\/form-data/);
    assertError(await raw(c, '/upload/form', 'file=x', 'text/plain'), 400, /multipart\/form-data/);
    assertError(await c.post('/upload/form', { body: 'file=x' }), 400, /multipart\/form-data/);
  });

  it('refuses urlencoded field names nested deeper than 32 levels', async () => {
    const c = client();
    const urlencoded = 'application/x-www-form-urlencoded';
    assert.equal((await raw(c, '/upload/form', `a${'[b]'.repeat(32)}=1`, urlencoded)).status, 200);
    assertError(await raw(c, '/upload/form', `a${'[b]'.repeat(33)}=1`, urlencoded), 400, /deeper than 32/);
    assertError(await send(c, '/upload/form', [{ name: `a${'[b]'.repeat(33)}`, value: '1' }]), 400, /deeper than 32/);
  });
});
