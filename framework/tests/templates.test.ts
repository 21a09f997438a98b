import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BaseRouter, Get, HTMLResponse, HTTPException, Middleware, router, TemplateResponse, type CallNext, type Request } from '../index';
import { render } from '../templates/template-response';
import { TrellisError } from '../framework-error';
import { Query } from '../param';
import { TestClient } from '../testing';
import { capturedLog, type LogLine } from './fixtures/captured-log';

const DIR = join(__dirname, 'fixtures', 'templates');

class Pages extends router('/') {
  @Get('/hello') hello(@Query('name', { default: 'world' }) name: string) {
    return render('index.html', { title: 'Greeting', name });
  }
  @Get('/tasks') tasks() {
    return render('tasks.html', { title: 'tasks', tasks: [{ title: 'Write <docs>' }, { title: 'Ship' }] });
  }
  @Get('/created') created() { return render('index.html', { title: 'New', name: 'x' }, { status: 201, headers: { 'x-page': 'created' } }); }
  @Get('/tuple') tuple() { return [render('index.html', { title: 'Tuple', name: 'y' }), 202]; }
  @Get('/trusted') trusted() { return render('trusted.html', { html: '<b>bold</b>' }); }
  @Get('/missing') missing() { return render('nope.html'); }
  @Get('/broken') broken() { return render('broken.html'); }
  @Get('/missing-include') missingInclude() { return render('missing-include.html'); }
  @Get('/escape') escape(@Query('name') name: string) { return render(name); }
  @Get('/teapot') teapot() { throw new HTTPException(418, 'short and stout'); }
}

/** A logged line as text: its message, then its error's. */
const text = (line: LogLine) => `${line.msg} ${line.err?.message ?? ''}`;

function app(logs: LogLine[] = []) {
  const { logger } = capturedLog('info', logs);
  return new BaseRouter({ logger })
    .templates(DIR, { filters: { shout: (s: string) => `${s.toUpperCase()}!` }, globals: { site: 'trellis.dev' } })
    .includeRouter(Pages);
}

describe('render() and app.templates()', () => {
  it('returns an HTMLResponse recording the template and context', () => {
    const page = render('index.html', { title: 'T' });
    assert.ok(page instanceof TemplateResponse);
    assert.ok(page instanceof HTMLResponse);
    assert.equal(page.template, 'index.html');
    assert.deepEqual(page.context, { title: 'T' });
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('renders with autoescaping: tags, quotes and ampersands in values are escaped', async () => {
    const client = new TestClient(app());
    const plain = await client.get('/hello', { query: { name: 'Ada' } });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(plain.text, '<h1>Greeting</h1>\n<p title="Ada">Hello, Ada!</p>\n');

    const evil = await client.get('/hello', { query: { name: `<script>alert("x")</script>' & "` } });
    assert.equal(
      evil.text,
      '<h1>Greeting</h1>\n<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &quot;">' +
        'Hello, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &quot;!</p>\n',
    );
    assert.ok(!evil.text.includes('<script>'));
    assert.equal(evil.headers['content-length'], String(Buffer.byteLength(evil.text)));
  });

  it('passes `| safe` values through unescaped', async () => {
    const res = await new TestClient(app()).get('/trusted');
    assert.equal(res.text, '<div><b>bold</b></div><div>&lt;b&gt;bold&lt;/b&gt;</div>\n');
  });

  it('supports extends, include, loops, and the filters and globals given to templates()', async () => {
    const res = await new TestClient(app()).get('/tasks');
    assert.equal(
      res.text,
      '<!doctype html>\n<title>TASKS!</title>\n<main><ul><li>Write &lt;docs&gt;</li>\n<li>Ship</li>\n</ul><footer>trellis.dev</footer></main>\n',
    );
  });

  it('keeps the status and headers given to render() or a tuple; HEAD gets headers only', async () => {
    const client = new TestClient(app());
    const created = await client.get('/created');
    assert.equal(created.status, 201);
    assert.equal(created.headers['x-page'], 'created');
    assert.match(created.text, /<h1>New<\/h1>/);
    const tuple = await client.get('/tuple');
    assert.equal(tuple.status, 202);
    assert.match(tuple.text, /<h1>Tuple<\/h1>/);
    const head = await client.head('/hello');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-length'], String(Buffer.byteLength('<h1>Greeting</h1>\n<p title="world">Hello, world!</p>\n')));
  });

  it('renders before middleware sees the response, and renders what middleware and exception handlers return', async () => {
    const seen: string[] = [];
    class Peek extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        if (request.path === '/maintenance') return render('error.html', { status: 503, message: 'Back soon' }, { status: 503 });
        const response = await callNext(request);
        seen.push(String(response.body));
        return response;
      }
    }
    const application = app().addMiddleware(Peek);
    application.addExceptionHandler(HTTPException, (error) => render('error.html', { status: error.status, message: error.message }, { status: error.status }));
    const client = new TestClient(application);
    await client.get('/hello');
    assert.deepEqual(seen, ['<h1>Greeting</h1>\n<p title="world">Hello, world!</p>\n']);
    const teapot = await client.get('/teapot');
    assert.equal(teapot.status, 418);
    assert.equal(teapot.text, '<h1>Error 418</h1><p>short and stout</p>\n');
    const maintenance = await client.get('/maintenance');
    assert.equal(maintenance.status, 503);
    assert.equal(maintenance.text, '<h1>Error 503</h1><p>Back soon</p>\n');
  });
});

describe('template errors', () => {
  it('answers a missing, broken or escaping template with a bare 500 and logs its name', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/missing', /Template "nope\.html" not found in .*templates/],
      ['/broken', /Template "broken\.html" failed to render/],
      ['/missing-include', /Template "missing-include\.html" failed to render: .*nowhere\.html/],
      ['/escape?name=../templates-old/secret.html', /Template "\.\.\/templates-old\/secret\.html" not found/],
      ['/escape?name=/etc/passwd', /Template "\/etc\/passwd" not found/],
      ['/escape?name=../../../../../../etc/passwd', /not found/],
    ];
    for (const [path, logged] of cases) {
      const logs: LogLine[] = [];
      const res = await new TestClient(app(logs)).get(path);
      assert.equal(res.status, 500, path);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
      assert.deepEqual(res.json(), { error: 'Internal Server Error' }, path);
      assert.equal(logs.length, 1, path);
      assert.match(text(logs[0]), logged, path);
    }
  });

  it('logs a render() without app.templates() as a 500 naming the fix', async () => {
    const { logger, lines: logs } = capturedLog();
    const res = await new TestClient(new BaseRouter({ logger }).includeRouter(Pages)).get('/hello');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.match(text(logs[0]), /render\("index\.html"\) needs a templates directory: call app\.templates\(dir\)/);
  });

  it('falls back to a bare 500 when the error page itself cannot render', async () => {
    const application = app();
    application.addExceptionHandler(HTTPException, () => render('nope.html'));
    const res = await new TestClient(application).get('/teapot');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
  });

  it('checks the directory at startup', () => {
    assert.throws(() => new BaseRouter().templates(join(DIR, 'nowhere')), (error: unknown) => {
      assert.ok(error instanceof TrellisError);
      assert.equal(error.code, 'TRELLIS_ERR_TEMPLATES_DIR');
      return true;
    });
    assert.equal(new BaseRouter().templates(DIR).templatesDir, DIR);
    assert.equal(new BaseRouter().templatesDir, undefined);
  });
});
