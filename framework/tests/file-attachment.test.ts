import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import contentDisposition from 'content-disposition';
import { BaseRouter, FileResponse, Get, router, type Response } from '../index';
import { TestClient } from '../testing';
import { closeServer, startServer } from './fixtures/listening';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'trellis-attachment-'));
  writeFileSync(join(dir, 'note.txt'), 'hello file');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string) => join(dir, name);

/** An app whose `GET /f` answers `make()`. */
function serve(make: () => Response): BaseRouter {
  class Files extends router('/') {
    @Get('/f') get() { return make(); }
  }
  return new BaseRouter().includeRouter(Files);
}

const client = (make: () => Response) => new TestClient(serve(make));

describe('FileResponse Content-Disposition', () => {
  const disposition = async (filename: string | undefined, type?: 'inline' | 'attachment') => {
    const res = await client(() => new FileResponse(file('note.txt'), { filename, disposition: type })).get('/f');
    assert.equal(res.status, 200, JSON.stringify(filename)?.slice(0, 40));
    assert.equal(res.text, 'hello file');
    return String(res.headers['content-disposition']);
  };

  it('sends attachment with a quoted ASCII name, or inline', async () => {
    assert.equal(await disposition('report.txt'), 'attachment; filename="report.txt"');
    assert.equal(await disposition('report.txt', 'inline'), 'inline; filename="report.txt"');
    assert.equal(await disposition(undefined, 'inline'), 'inline');
    assert.equal(await disposition(undefined, 'attachment'), 'attachment');
    assert.equal(await disposition('say "hi".txt'), 'attachment; filename="say \\"hi\\".txt"');
  });

  it('encodes non-ASCII names as filename* next to an ASCII fallback', async () => {
    assert.equal(
      await disposition('Rapport été.pdf'),
      `attachment; filename="Rapport ete.pdf"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9.pdf`,
    );
    assert.equal(await disposition('報告.txt'), `attachment; filename="__.txt"; filename*=UTF-8''%E5%A0%B1%E5%91%8A.txt`);
    assert.equal(await disposition('🎉.png'), `attachment; filename="__.png"; filename*=UTF-8''%F0%9F%8E%89.png`);
  });

  it('never breaks the header or the server, whatever the name, and keeps the name readable', async () => {
    const hostile = [
      'a\r\nSet-Cookie: x=1.txt',
      'line\nbreak.txt',
      'nul\0byte.txt',
      'tab\there.txt',
      'semi;colon=1.txt',
      '"quoted".txt',
      '100%25.txt',
      '\ud800lone surrogate.txt',
      'tail\udfff.txt',
      '../../etc/passwd',
      'C:\\Users\\x\\secret.txt',
      'é'.repeat(3000) + '.txt',
      '😀'.repeat(2000),
      'del\u007f.txt',
      ' ',
      '',
      '/',
    ];
    for (const name of hostile) {
      const header = await disposition(name);
      assert.match(header, /^attachment(; |$)/, JSON.stringify(name).slice(0, 40));
      assert.ok(/^[\x20-\x7e]*$/.test(header), `${JSON.stringify(name).slice(0, 40)}: ${header.slice(0, 80)}`);
      // What the browser reads back: the last path segment, the same characters (a lone surrogate as U+FFFD).
      const segment = name.split(/[/\\]/).pop()!.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
      if (segment === '') continue;
      assert.equal(contentDisposition.parse(header).parameters.filename, segment, JSON.stringify(name).slice(0, 40));
    }
  });

  it('is served over a real socket with the same header', async () => {
    const { server, port } = await startServer(serve(() => new FileResponse(file('note.txt'), { filename: 'naïve\r\nSet-Cookie: x=1 😀.txt' })));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/f`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="naive__Set-Cookie: x=1 __.txt"; filename*=UTF-8''na%C3%AFve%0D%0ASet-Cookie%3A%20x%3D1%20%F0%9F%98%80.txt`);
      assert.equal(res.headers.get('set-cookie'), null, 'no header injected');
      assert.equal(await res.text(), 'hello file');
    } finally {
      await closeServer(server);
    }
  });
});
