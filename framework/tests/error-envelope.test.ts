import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Post, Response, router } from '../index';
import { Body } from '../param';
import { silentLogger } from './fixtures/captured-log';
import { firstResponse, raw } from './fixtures/raw-socket';
import { listening } from './fixtures/listening';

// Every layer that can answer with an error (Node's parser, the body timeout, the pipeline, the writer's own
// 500, an Express middleware) sends the one envelope of error-envelope.ts: these must never drift apart.
class Api extends router('/') {
  @Get('/boom') boom(): never { throw new Error('secret detail'); }
  @Get('/bad-header') badHeader() { return new Response('x', { headers: { 'x-bad': 'a\nb' } }); }
  @Post('/upload') upload(@Body() body: unknown) { return { body }; }
  @Get('/express/fails') expressFails() { return { reached: true }; }
  @Get('/express/forbidden') expressForbidden() { return { reached: true }; }
}

const app = new BaseRouter({ logger: silentLogger() }).includeRouter(new Api());
app.addMiddleware((req: { url: string }, _res: unknown, next: (error?: unknown) => void) => {
  if (req.url === '/express/fails') return next(new Error('secret detail'));
  if (req.url === '/express/forbidden') return next(Object.assign(new Error('Not yours'), { status: 403 }));
  next();
});
const live = listening(app, { bodyTimeout: 100 });

const exchange = async (payload: string, waitMs?: number) => {
  const { text } = await raw(live.port, payload, waitMs);
  return { statusLine: text.slice(0, text.indexOf('\r\n')), ...firstResponse(text) };
};

/** What the envelope fixes, whichever layer wrote it. */
function assertEnvelope(res: Awaited<ReturnType<typeof exchange>>, status: number, error: string, path: string): void {
  assert.equal(res.statusLine, `HTTP/1.1 ${status} ${STATUS_CODES[status]}`, path);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', path);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
  assert.match(res.headers['x-request-id'], /^[0-9a-f]{6}-[0-9a-z]{1,5}$/, path);
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), path);
  assert.equal(res.body, JSON.stringify({ error }), path);
}

describe('the JSON error envelope', () => {
  it('is the same from the parser (400, 431), the body timeout (408), the pipeline, the writer and Express middleware', { timeout: 10_000 }, async () => {
    const get = (path: string) => exchange(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const cases: Array<[string, Promise<Awaited<ReturnType<typeof exchange>>>, number, string]> = [
      ['parser: garbage request line', exchange('GARBAGE\r\n\r\n'), 400, 'Bad Request'],
      ['parser: headers over 16 KiB', exchange(`GET /boom HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`), 431, 'Request Header Fields Too Large'],
      [
        'body timeout',
        exchange('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":', 5_000),
        408,
        'Request Timeout',
      ],
      ['pipeline: handler throws', get('/boom'), 500, 'Internal Server Error'],
      ['pipeline: no route', get('/nowhere'), 404, 'Not Found'],
      ['writer: Node refuses the headers', get('/bad-header'), 500, 'Internal Server Error'],
      ['Express middleware: next(error)', get('/express/fails'), 500, 'Internal Server Error'],
      ['Express middleware: next(error with status)', get('/express/forbidden'), 403, 'Not yours'],
    ];
    for (const [name, res, status, error] of cases) assertEnvelope(await res, status, error, name);
  });
});
