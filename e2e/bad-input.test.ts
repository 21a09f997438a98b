import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { BOUNDARY, file as filePart, multipart, type Part } from '../framework/tests/fixtures/uploads/multipart';
import { rawStatus } from './support/raw-http';
import { adminToken, createSampleProject, runProject, type RunningApp } from './support/sample-server';

// The bad-input corpus of the hardening issue, against the sample project started by `trellis run`:
// every case gets a 4xx (never a 5xx, never a hang), the process stays up, and no secret leaks.

interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bytes sent on a raw socket instead of a well-formed request. */
  raw?: string;
  expect: number[];
}

const json = { 'content-type': 'application/json' };
const form = multipart([]).headers;
const parts = (list: Part[]) => multipart(list).body;
// Without the closing boundary line.
const truncated = (list: Part[]) => parts(list).subarray(0, -`--${BOUNDARY}--\r\n`.length);
const deep = '['.repeat(20_000) + ']'.repeat(20_000);
const file = (size: number) => filePart('file', 'a.bin', Buffer.alloc(size, 1));

const cases: Case[] = [
  // JSON bodies
  { name: 'body over 1 MiB', method: 'POST', path: '/tasks', headers: json, body: JSON.stringify({ title: 'x'.repeat(1_100_000) }), expect: [413] },
  { name: 'gzip body over 1 MiB once decoded', method: 'POST', path: '/tasks', headers: { ...json, 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify({ title: 'x'.repeat(2_000_000) })), expect: [413] },
  { name: 'corrupt gzip', method: 'POST', path: '/tasks', headers: { ...json, 'content-encoding': 'gzip' }, body: 'nope', expect: [400] },
  { name: 'unknown content-encoding', method: 'POST', path: '/tasks', headers: { ...json, 'content-encoding': 'lzma' }, body: '{}', expect: [415] },
  { name: 'malformed JSON', method: 'POST', path: '/tasks', headers: json, body: '{"title":', expect: [400] },
  { name: 'trailing garbage', method: 'POST', path: '/tasks', headers: json, body: '{"title":"a"} x', expect: [400] },
  { name: 'empty JSON body', method: 'POST', path: '/tasks', headers: json, body: '', expect: [422] },
  { name: 'whitespace JSON body', method: 'POST', path: '/tasks', headers: json, body: '  \n ', expect: [400] },
  { name: 'JSON nested 20,000 deep', method: 'POST', path: '/tasks', headers: json, body: deep, expect: [400] },
  { name: 'JSON nested deep inside a field', method: 'POST', path: '/tasks', headers: json, body: `{"title":"a","x":${deep}}`, expect: [400] },
  { name: 'text/plain on a JSON endpoint', method: 'POST', path: '/tasks', headers: { 'content-type': 'text/plain' }, body: '{"title":"a"}', expect: [415] },
  { name: 'latin1 charset', method: 'POST', path: '/tasks', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"title":"a"}', expect: [415] },
  { name: 'XML on a JSON endpoint', method: 'POST', path: '/tasks', headers: { 'content-type': 'application/xml' }, body: '<a/>', expect: [415] },
  { name: 'form on a JSON endpoint', method: 'POST', path: '/tasks', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'title=a', expect: [415] },
  { name: '__proto__ key', method: 'POST', path: '/tasks', headers: json, body: '{"title":"a","__proto__":{"admin":true}}', expect: [400] },
  { name: 'constructor.prototype key', method: 'POST', path: '/tasks', headers: json, body: '{"title":"a","constructor":{"prototype":{"admin":true}}}', expect: [400] },
  { name: '__proto__ deep in an array', method: 'POST', path: '/products/batch', headers: json, body: '[{"name":"a","price":1,"x":{"__proto__":{"p":1}}}]', expect: [400] },
  { name: 'wrong field type', method: 'POST', path: '/tasks', headers: json, body: '{"title":42}', expect: [422] },
  { name: 'array for an object', method: 'POST', path: '/tasks', headers: json, body: '[]', expect: [422] },
  { name: 'null body', method: 'POST', path: '/tasks', headers: json, body: 'null', expect: [422] },
  { name: 'string body', method: 'POST', path: '/tasks', headers: json, body: '"title"', expect: [422] },
  { name: 'batch: object for an array', method: 'POST', path: '/products/batch', headers: json, body: '{"name":"a","price":1}', expect: [422] },
  { name: 'batch: one bad element', method: 'POST', path: '/products/batch', headers: json, body: '[{"name":"a","price":1},{"name":"","price":-1}]', expect: [422] },
  { name: 'user: bad e-mail', method: 'POST', path: '/users', headers: json, body: '{"name":"a","email":"nope","age":30}', expect: [422] },
  { name: 'user: age 12', method: 'POST', path: '/users', headers: json, body: '{"name":"a","email":"a@b.co","age":12}', expect: [422] },
  { name: 'user: age 13.5', method: 'POST', path: '/users', headers: json, body: '{"name":"a","email":"a@b.co","age":13.5}', expect: [422] },
  { name: 'PUT with a bad id and body', method: 'PUT', path: '/tasks/x', headers: json, body: '{}', expect: [422] },
  // parameters and routing
  { name: 'non-numeric id', path: '/tasks/abc', expect: [422] },
  { name: 'fractional id', path: '/tasks/1.5', expect: [422] },
  { name: 'huge id', path: '/tasks/99999999999999999999999', expect: [422] },
  { name: 'negative zero id', path: '/tasks/-0', expect: [404, 422] },
  { name: 'NUL in a path parameter', path: '/tasks/%00', expect: [400, 404, 422] },
  { name: 'bad percent-encoding in a path parameter', path: '/tasks/%zz', expect: [400, 404, 422] },
  { name: 'missing required query', path: '/products/search', expect: [422] },
  { name: 'non-integer page', path: '/products/search?q=x&page=abc', expect: [422] },
  { name: 'NaN price', path: '/products/search?q=x&min_price=NaN', expect: [422] },
  { name: 'infinite limit', path: '/products?limit=1e999', expect: [422] },
  { name: 'page 0', path: '/products?page=0', expect: [422] },
  { name: 'limit over its maximum', path: '/products/search?q=x&limit=101', expect: [422] },
  { name: 'unknown sort', path: '/products/search?q=x&sort=colour', expect: [422] },
  { name: 'bad percent-encoding in the query', path: '/products/search?q=%zz', expect: [200, 400, 422] },
  { name: 'unknown task', path: '/tasks/999', expect: [404] },
  { name: 'wrong method', method: 'PATCH', path: '/tasks', expect: [405] },
  { name: 'unknown path', method: 'DELETE', path: '/nowhere/at/all', expect: [404] },
  { name: 'unknown method', method: 'BREW', path: '/tasks', expect: [400, 404, 405, 501] },
  // auth
  { name: 'admin without a token', path: '/admin/stats', expect: [401] },
  { name: 'admin with a wrong token', path: '/admin/stats', headers: { authorization: 'Bearer wrong' }, expect: [401] },
  { name: 'admin with a malformed header', path: '/admin/stats', headers: { authorization: 'Basic Zm9vOmJhcg==' }, expect: [401] },
  // uploads
  { name: 'upload without a file', method: 'POST', path: '/upload/file', headers: form, body: parts([{ name: 'note', value: 'hi' }]), expect: [400] },
  { name: 'upload over 10 MiB', method: 'POST', path: '/upload/file', headers: form, body: parts([file(11 * 1024 * 1024)]), expect: [413] },
  { name: 'multipart without a boundary', method: 'POST', path: '/upload/file', headers: { 'content-type': 'multipart/form-data' }, body: 'x', expect: [400] },
  { name: 'truncated multipart', method: 'POST', path: '/upload/file', headers: form, body: truncated([file(10)]), expect: [400] },
  { name: 'unexpected file field', method: 'POST', path: '/upload/file', headers: form, body: parts([{ ...file(10), name: 'other' }]), expect: [400] },
  { name: '11 files', method: 'POST', path: '/upload/file', headers: form, body: parts(Array.from({ length: 11 }, () => file(1))), expect: [400, 413] },
  { name: '101 fields', method: 'POST', path: '/upload/file', headers: form, body: parts(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, value: 'v' }))), expect: [413] },
  { name: 'urlencoded with 1,001 fields', method: 'POST', path: '/upload/file', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Array.from({ length: 1001 }, (_, i) => `f${i}=v`).join('&'), expect: [400, 413] },
  { name: 'urlencoded nested 33 deep', method: 'POST', path: '/upload/file', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a${'[b]'.repeat(33)}=1`, expect: [400] },
  { name: 'JSON to the upload endpoint', method: 'POST', path: '/upload/file', headers: json, body: '{}', expect: [400, 415] },
  // static files
  { name: 'static: ..', raw: 'GET /static/../config.yaml HTTP/1.1\r\nHost: x\r\n\r\n', path: '', expect: [400, 403, 404] },
  { name: 'static: %2e%2e', path: '/static/%2e%2e/config.yaml', expect: [400, 403, 404] },
  { name: 'static: ..%2f', path: '/static/..%2fconfig.yaml', expect: [400, 403, 404] },
  { name: 'static: ..%5c', path: '/static/..%5cconfig.yaml', expect: [400, 403, 404] },
  { name: 'static: %00', path: '/static/style.css%00.txt', expect: [400, 403, 404] },
  { name: 'static: bare %', path: '/static/%', expect: [400, 403, 404] },
  { name: 'static: dotfile', path: '/static/.secret', expect: [400, 403, 404] },
  { name: 'static: symlink out of the folder', path: '/static/escape.yaml', expect: [400, 403, 404] },
  { name: 'static: encoded traversal to /etc/passwd', path: '/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd', expect: [400, 403, 404] },
  // the protocol
  { name: 'URL over 16 KiB', raw: `GET /tasks?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, path: '', expect: [0, 414, 431] },
  { name: 'headers over 16 KiB', raw: `GET /tasks HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`, path: '', expect: [0, 431] },
  { name: 'garbage request line', raw: '\x16\x03\x01 hello there\r\n\r\n', path: '', expect: [0, 400] },
  { name: 'conflicting Content-Length', raw: 'POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{}', path: '', expect: [0, 400] },
  { name: 'Content-Length with Transfer-Encoding', raw: 'POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', path: '', expect: [0, 400] },
  { name: 'bad chunked encoding', raw: 'POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', path: '', expect: [0, 400] },
  { name: 'header without a colon', raw: 'GET /tasks HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n', path: '', expect: [0, 400] },
  { name: 'no Host header', raw: 'GET /tasks HTTP/1.1\r\n\r\n', path: '', expect: [400] },
  { name: 'two Host headers', raw: 'GET /tasks HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', path: '', expect: [400] },
  { name: 'Transfer-Encoding: gzip, chunked', raw: 'POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', path: '', expect: [501] },
  { name: '1,100 header lines then Authorization', raw: `GET /admin/stats HTTP/1.1\r\nHost: x\r\n${'x: 1\r\n'.repeat(1_100)}Authorization: Bearer t\r\n\r\n`, path: '', expect: [431] },
  { name: 'absolute-form target to the admin router', raw: 'GET http://x/admin/stats HTTP/1.1\r\nHost: x\r\n\r\n', path: '', expect: [401] },
  { name: 'encoded admin path', path: '/admin/%73tats', expect: [401] },
  { name: 'admin path with a trailing slash', path: '/admin/stats/', expect: [401] },
];

// What real apps do with request data: a file name from the query in Content-Disposition. A value Node
// refuses in a header (here U+20AC) used to end the process.
const PROBE_ROUTER = `import { Get, JSONResponse, router } from 'trellis';
import { Query } from 'trellis/param';

export class ProbeRouter extends router('/probe') {
  @Get('/download')
  download(@Query('v') v: string) {
    return new JSONResponse({ ok: true }, { headers: { 'content-disposition': \`attachment; filename="\${v}"\` } });
  }
}
`;

let app: RunningApp;
let project: { dir: string; remove(): void };
let secrets: RegExp;
before(async () => {
  project = createSampleProject();
  const token = adminToken(project.dir);
  secrets = new RegExp(`SECRET-DOTFILE|${token}|${project.dir}|\\.ts:\\d+`);
  writeFileSync(join(project.dir, 'static', '.secret'), 'SECRET-DOTFILE');
  symlinkSync(join(project.dir, 'config.yaml'), join(project.dir, 'static', 'escape.yaml'));
  mkdirSync(join(project.dir, 'static', 'sub'));
  writeFileSync(join(project.dir, 'routers', 'probe.ts'), PROBE_ROUTER);
  app = await runProject(project.dir);
});
after(async () => {
  await app?.stop();
  project?.remove();
});

describe(`bad input (${cases.length} cases) on a running sample project`, () => {
  it('has at least 60 cases', () => assert.ok(cases.length >= 60));

  for (const c of cases) {
    it(c.name, async () => {
      if (c.raw !== undefined) {
        const status = await rawStatus(app.port, c.raw);
        assert.ok(c.expect.includes(status), `status ${status}, expected one of ${c.expect}`);
        return;
      }
      const res = await fetch(app.url + c.path, { method: c.method ?? 'GET', headers: c.headers, body: c.body });
      const text = await res.text();
      assert.ok(c.expect.includes(res.status), `status ${res.status}, expected one of ${c.expect}: ${text.slice(0, 200)}`);
      if (res.status >= 400) {
        assert.match(String(res.headers.get('content-type')), /^application\/json/);
        assert.equal(typeof JSON.parse(text).error, 'string');
        assert.ok(res.headers.get('x-request-id'), 'a request id');
      }
      assert.doesNotMatch(text, secrets, 'nothing leaks');
    });
  }

  it('is still up and serving', async () => {
    assert.equal(app.child.exitCode, null);
    const res = await fetch(`${app.url}/tasks/1`);
    assert.equal(res.status, 200);
    // 501 is the refusal RFC 9112 asks for an unknown transfer coding, not a fault.
    assert.doesNotMatch(app.output(), /"status":5(?!01)\d\d/, 'no 5xx but 501 in the access log');
  });

  it('answers a header Node refuses with a 500 and serves on (it used to end the process)', async () => {
    const res = await fetch(`${app.url}/probe/download?v=%E2%82%AC.pdf`);
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { error: 'Internal Server Error' });
    assert.equal((await fetch(`${app.url}/probe/download?v=a.pdf`)).status, 200);
    assert.equal(app.child.exitCode, null);
  });
});
