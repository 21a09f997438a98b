import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { BaseRouter, Form, Middleware, Post, Request, router, type CallNext } from '../index';
import { TrellisError } from '../framework-error';
import { Body, Req, UploadedFile } from '../param';
import { TestClient } from '../testing';
import { IsString } from 'class-validator';
import { file, multipart } from './fixtures/uploads/multipart';

// What a test middleware records (declared for the whole test program: a name of this file's own).
declare module '../index' {
  interface RequestState {
    uploadsTestLength?: number;
  }
}

class UploadRouter extends router('/upload') {
  /** The sample endpoint of the spec: the file in field `file`, or a 400. */
  @Post('/file')
  upload(@UploadedFile('file') upload: UploadedFile | undefined) {
    if (!upload) return [{ error: 'No file uploaded' }, 400];
    return { filename: upload.filename, size: upload.size };
  }

  @Post('/echo')
  async echo(@UploadedFile('file') upload: UploadedFile | undefined) {
    if (!upload) return [{ error: 'No file uploaded' }, 400];
    const hex = (await upload.bytes()).toString('hex');
    return { fieldname: upload.fieldname, filename: upload.filename, mimetype: upload.mimetype, size: upload.size, hex, inMemory: upload.buffer !== undefined };
  }

  @Post('/form')
  async form(@Req() request: Request) {
    const form = await request.form();
    return {
      isForm: form instanceof Form,
      fields: form.fields,
      files: await Promise.all(form.files.map(async (f) => ({ field: f.fieldname, filename: f.filename, text: (await f.bytes()).toString() }))),
    };
  }

  @Post('/both')
  async both(@UploadedFile('file') upload: UploadedFile | undefined, @Req() request: Request) {
    const form = await request.form();
    return { file: upload?.filename, same: form.file('file') === upload, title: form.fields.title, others: form.filesOf('extra').length };
  }
}

const client = (app = new BaseRouter()) => new TestClient(app.includeRouter(UploadRouter));
const post = (c: TestClient, path: string, form: ReturnType<typeof multipart>) => c.post(path, { body: form.body, headers: form.headers });

describe('@UploadedFile', () => {
  it('gives the file of field `file` as { filename, mimetype, size, buffer }, byte for byte', async () => {
    // Random bytes plus CRLF and dashes: nothing in the content may be mistaken for a boundary.
    const content = Buffer.concat([randomBytes(4096), Buffer.from('\r\n--\r\n------trellis\r\n'), randomBytes(100)]);
    const res = await post(client(), '/upload/echo', multipart([file('file', 'photo.png', content, 'image/png')]));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      fieldname: 'file', filename: 'photo.png', mimetype: 'image/png', size: content.length, hex: content.toString('hex'), inMemory: true,
    });
  });

  it('is the sample endpoint: { filename, size } with a file, 400 {error} without one', async () => {
    const c = client();
    const ok = await post(c, '/upload/file', multipart([file('file', 'notes.txt', 'hello world', 'text/plain')]));
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json(), { filename: 'notes.txt', size: 11 });

    const textOnly = await post(c, '/upload/file', multipart([{ name: 'file', value: 'not a file' }]));
    assert.equal(textOnly.status, 400);
    assert.deepEqual(textOnly.json(), { error: 'No file uploaded' });

    const noBody = await c.post('/upload/file');
    assert.equal(noBody.status, 400);
    assert.deepEqual(noBody.json(), { error: 'No file uploaded' });

    // What a browser sends for a file input left empty.
    const emptyInput = await post(c, '/upload/file', multipart([file('file', '', '')]));
    assert.equal(emptyInput.status, 400);
    assert.deepEqual(emptyInput.json(), { error: 'No file uploaded' });
  });

  it('keeps an empty file that has a name, and decodes UTF-8 names', async () => {
    const c = client();
    assert.deepEqual((await post(c, '/upload/file', multipart([file('file', 'empty.txt', '')]))).json(), { filename: 'empty.txt', size: 0 });
    const utf8 = await post(c, '/upload/file', multipart([file('file', 'résumé 日本.pdf', 'pdf')]));
    assert.deepEqual(utf8.json(), { filename: 'résumé 日本.pdf', size: 3 });
  });

  it('strips directories from the client file name', async () => {
    const c = client();
    for (const name of ['../../etc/passwd', '/etc/passwd', '..\\..\\windows\\passwd']) {
      const res = await post(c, '/upload/file', multipart([file('file', name, 'x')]));
      assert.deepEqual(res.json(), { filename: 'passwd', size: 1 }, name);
    }
  });

  it('shares one parse with request.form() on the same route, which may read other file fields', async () => {
    const form = multipart([
      { name: 'title', value: 'Holiday' },
      file('file', 'a.jpg', 'A'),
      file('extra', 'b.jpg', 'B'),
      file('extra', 'c.jpg', 'C'),
    ]);
    const res = await post(client(), '/upload/both', form);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { file: 'a.jpg', same: true, title: 'Holiday', others: 2 });
  });

  it('reads the file when middleware has already read the raw body', async () => {
    class ReadsBody extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        request.state.uploadsTestLength = (await request.body()).length;
        return callNext(request);
      }
    }
    const app = new BaseRouter().addMiddleware(ReadsBody);
    const res = await post(client(app), '/upload/file', multipart([file('file', 'a.txt', 'abc')]));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { filename: 'a.txt', size: 3 });
  });

  it('writes nothing to disk for files up to memorySize', async () => {
    // An empty temp dir and working dir for this process: anything a disk-backed parser wrote would land there.
    const sandbox = mkdtempSync(join(tmpdir(), 'trellis-uploads-'));
    const temp = join(sandbox, 'tmp');
    const work = join(sandbox, 'work');
    mkdirSync(temp);
    mkdirSync(work);
    const saved = { tmp: process.env.TMPDIR, cwd: process.cwd() };
    process.env.TMPDIR = temp;
    process.chdir(work);
    try {
      assert.equal(tmpdir(), temp);
      const c = client();
      const atLimit = randomBytes(1024 * 1024);
      const echoed = await post(c, '/upload/echo', multipart([file('file', 'max.bin', atLimit)]));
      assert.equal(echoed.json().inMemory, true);
      assert.equal(echoed.json().hex, atLimit.toString('hex'));
      assert.equal((await post(c, '/upload/form', multipart([file('a', 'a.bin', atLimit), file('b', 'b.bin', 'b')]))).status, 200);
      assert.deepEqual(readdirSync(temp), [], 'nothing in the temp directory');
      assert.deepEqual(readdirSync(work), [], 'nothing in the working directory');
    } finally {
      process.chdir(saved.cwd);
      if (saved.tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved.tmp;
      rmSync(sandbox, { recursive: true, force: true });
    }
  });

  it('refuses @Body() next to @UploadedFile() at startup, with a code', () => {
    class Note {
      @IsString() text!: string;
    }
    class Mixed extends router('/mixed') {
      @Post() both(@Body() note: Note, @UploadedFile('file') upload: UploadedFile | undefined) { return { note, upload }; }
    }
    assert.throws(() => new BaseRouter().includeRouter(Mixed), (error: unknown) => {
      assert.ok(error instanceof TrellisError);
      assert.equal(error.code, 'TRELLIS_ERR_BODY_WITH_FILE');
      assert.match(error.message, /Mixed\.both/);
      return true;
    });
  });
});

describe('request.form()', () => {
  it('returns the fields and files of a multipart body; repeated names are arrays, a[b] names nest', async () => {
    const form = multipart([
      { name: 'title', value: 'Trip' },
      { name: 'tag', value: 'sea' },
      { name: 'tag', value: 'sun' },
      { name: 'owner[name]', value: 'Ada' },
      { name: 'owner[langs][]', value: 'en' },
      { name: 'note', value: 'a + b = c & d' },
      file('photos', 'one.jpg', '1'),
      file('photos', 'two.jpg', '2'),
    ]);
    const res = await post(client(), '/upload/form', form);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      isForm: true,
      fields: { title: 'Trip', tag: ['sea', 'sun'], owner: { name: 'Ada', langs: ['en'] }, note: 'a + b = c & d' },
      files: [
        { field: 'photos', filename: 'one.jpg', text: '1' },
        { field: 'photos', filename: 'two.jpg', text: '2' },
      ],
    });
  });

  it('returns the fields of a urlencoded body the same way', async () => {
    const res = await client().post('/upload/form', {
      body: 'title=Trip+to%20Rome&tag=a&tag=b&owner%5Bname%5D=Ada&empty=',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      isForm: true,
      fields: { title: 'Trip to Rome', tag: ['a', 'b'], owner: { name: 'Ada' }, empty: '' },
      files: [],
    });
  });

  it('drops __proto__ and constructor keys instead of polluting prototypes', async () => {
    const res = await client().post('/upload/form', {
      body: '__proto__[polluted]=1&constructor[prototype][polluted]=2&safe=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json().fields, { safe: '3' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const multi = await post(client(), '/upload/form', multipart([{ name: '__proto__[polluted]', value: 'x' }, { name: 'ok', value: 'y' }]));
    assert.deepEqual(multi.json().fields, { ok: 'y' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('is an empty form for a request without a body', async () => {
    const res = await client().post('/upload/form');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { isForm: true, fields: {}, files: [] });
  });

  it('checks the limits at startup', () => {
    for (const uploads of [{ fileSize: 0 }, { files: -1 }, { fields: 1.5 }, { fieldSize: Number.NaN }, { bogus: 1 } as object]) {
      assert.throws(() => new BaseRouter({ uploads }), (error: unknown) => {
        assert.ok(error instanceof TrellisError);
        assert.equal(error.code, 'TRELLIS_ERR_UPLOAD_LIMIT');
        return true;
      }, JSON.stringify(uploads));
    }
    assert.deepEqual({ ...new BaseRouter({ uploads: { files: 3 } }).uploadLimits }, {
      fileSize: 10 * 1024 * 1024, files: 3, fields: 100, fieldSize: 1024 * 1024, fieldsSize: 1024 * 1024, memorySize: 1024 * 1024,
    });
  });
});
