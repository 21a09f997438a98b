import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { BaseRouter, Get, router, type Request } from '../../framework/index';
import { Req } from '../../framework/param';
import { listen, serverUrl, type Server } from '../../framework/server';
import { withAccessLog } from '../access-log';
import { loadProject } from '../load';
import { BatchedDestination } from '../log-destination';
import { RunLog } from '../run-log';
import { FIXTURES, ROOT } from './support';

/** What the log wrote, as parsed lines (after a flush). */
class Captured {
  chunks: string[] = [];
  readonly log = new RunLog(false, new BatchedDestination({ write: (chunk: Buffer | string) => this.chunks.push(String(chunk)) } as never));

  lines(): Array<Record<string, unknown>> {
    this.log.flush();
    return this.chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }
}

describe('the access log of trellis run', () => {
  const captured = new Captured();
  let server: Server;
  let url: string;
  before(async () => {
    const { app } = loadProject(join(FIXTURES, 'healthy'), { logger: captured.log.logger });
    server = await listen(withAccessLog(app.handler, captured.log), { host: '127.0.0.1', port: 0 });
    url = serverUrl(server);
  });
  after(() => server.close());

  /** Requests `path`, waits for the line the log writes once the response closes, returns it. */
  async function logged(path: string, init?: RequestInit): Promise<{ status: number; id: string | null; line: Record<string, unknown> }> {
    const before = captured.lines().length;
    const response = await fetch(`${url}${path}`, init);
    await response.arrayBuffer();
    for (let i = 0; i < 100 && captured.lines().length === before; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const lines = captured.lines();
    assert.equal(lines.length, before + 1, `one line for ${path}`);
    return { status: response.status, id: response.headers.get('x-request-id'), line: lines.at(-1)! };
  }

  it('writes one JSON line per request: level, time, method, path without the query, status, ms, request id, msg', async () => {
    const { status, id, line } = await logged('/tasks/99?token=secret');
    assert.equal(status, 404);
    assert.deepEqual(Object.keys(line), ['level', 'time', 'method', 'path', 'status', 'ms', 'reqId', 'msg']);
    assert.match(String(id), /^[0-9a-f]{6}-[0-9a-z]{1,5}$/);
    assert.deepEqual({ ...line, time: 0, ms: 0 }, { level: 30, time: 0, method: 'GET', path: '/tasks/99', status: 404, ms: 0, reqId: id, msg: 'request' });
    assert.ok(Math.abs((line.time as number) - Date.now()) < 5_000, 'epoch milliseconds');
    // Rounded to hundredths (0.29 * 100 is not an integer in floating point, so compare the rounding instead).
    assert.ok(typeof line.ms === 'number' && line.ms >= 0 && Math.round(line.ms * 100) / 100 === line.ms, `ms ${line.ms}`);
  });

  it('logs the path the client asked for when Express serves it from a mounted router (docs, static files)', async () => {
    const docs = await logged('/docs/');
    assert.equal(docs.status, 200);
    assert.deepEqual([docs.line.path, docs.line.status], ['/docs/', 200]);
    const spec = await logged('/docs/openapi.json');
    assert.deepEqual([spec.line.path, spec.line.status], ['/docs/openapi.json', 200]);
    const file = await logged('/static/hello.txt?v=2');
    assert.deepEqual([file.line.path, file.line.status], ['/static/hello.txt', 200]);
    assert.equal(file.line.reqId, file.id, 'the request id the answer carried');
  });

  it('logs 499 when the client goes away before the answer', async () => {
    const before = captured.lines().length;
    await new Promise<void>((resolve) => {
      const req = request(`${url}/admin/slow?ms=300`, { headers: { authorization: 'Bearer fixture-token' } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 50);
    });
    for (let i = 0; i < 100 && captured.lines().length === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const line = captured.lines().at(-1)!;
    assert.deepEqual([line.method, line.path, line.status], ['GET', '/admin/slow', 499]);
  });
});

describe('withAccessLog', () => {
  it('logs the request id the app set on the request (req.id), or none', async () => {
    const captured = new Captured();
    const server = await listen(
      withAccessLog((req, res) => {
        if (req.url === '/id') Object.assign(req, { id: 'from-app' });
        res.end('a');
      }, captured.log),
      { host: '127.0.0.1', port: 0 },
    );
    try {
      for (const path of ['/id', '/none']) await (await fetch(`${serverUrl(server)}${path}`)).text();
      for (let i = 0; i < 100 && captured.lines().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      server.close();
    }
    assert.deepEqual(
      captured.lines().map((line) => [line.path, line.reqId]),
      [['/id', 'from-app'], ['/none', undefined]],
    );
  });
});

describe('RunLog', () => {
  it('escapes what JSON needs escaped in a path or id, and leaves the id out when the answer had none', () => {
    const captured = new Captured();
    captured.log.access('GET', '/a"b\\c\u0001d/é', 200, 1.5, undefined);
    captured.log.access('POST', '/plain', 201, 0, 'id"1');
    const [first, second] = captured.lines();
    assert.deepEqual([first.path, 'reqId' in first], ['/a"b\\c\u0001d/é', false]);
    assert.deepEqual([second.method, second.path, second.status, second.ms, second.reqId], ['POST', '/plain', 201, 0, 'id"1']);
  });

  it("writes the access line byte for byte as pino writes the same fields (the line is built by hand), in order with pino's lines", () => {
    const captured = new Captured();
    const cases: Array<[string, string, number, number, string | undefined]> = [
      ['GET', '/tasks/1', 200, 0.42, 'b2f-1'],
      ['POST', '/a"b\\c\u0001d/é\u007f\u00ff', 201, 12, 'id"1'],
      ['DELETE', `/${'y'.repeat(60)}"`, 500, 1e-7, 'z'],
      ['GET', '/x', 499, 0, undefined],
    ];
    for (const [method, path, status, ms, reqId] of cases) {
      captured.log.access(method, path, status, ms, reqId);
      captured.log.logger.info({ method, path, status, ms, reqId }, 'request');
    }
    captured.log.flush();
    const lines = captured.chunks.join('').split('\n').filter(Boolean).map((line) => line.replace(/"time":\d+,/, ''));
    assert.equal(lines.length, 2 * cases.length);
    for (let i = 0; i < lines.length; i += 2) assert.equal(lines[i], lines[i + 1]);
  });

  it('writes access lines without loading pino, which loads with the first other line, written after them', () => {
    const script = `
      const { RunLog } = require('./runtime/run-log.ts');
      const { BatchedDestination } = require('./runtime/log-destination.ts');
      const chunks = [];
      const log = new RunLog(false, new BatchedDestination({ write: (chunk) => chunks.push(String(chunk)) }));
      const pino = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]pino[\\\\/]/.test(file));
      log.access('GET', '/tasks/1', 200, 0.5, 'a');
      const before = pino();
      log.logger.error({ reqId: 'b' }, 'failed');
      log.access('GET', '/tasks/2', 500, 0.7, 'b');
      log.flush();
      const lines = chunks.join('').split('\\n').filter(Boolean).map((line) => JSON.parse(line));
      console.log(JSON.stringify({ before, after: pino(), lines: lines.map(({ msg, path }) => [msg, path]) }));
    `;
    const run = spawnSync(process.execPath, ['-r', './register.js', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      before: false,
      after: true,
      lines: [['request', '/tasks/1'], ['failed', null], ['request', '/tasks/2']],
    });
  });

  it('writes no access line when the logger is set above info', () => {
    const captured = new Captured();
    (captured.log.logger as unknown as { level: string }).level = 'warn';
    captured.log.access('GET', '/quiet', 200, 1, 'q');
    assert.deepEqual(captured.lines(), []);
  });

  it("is the app's logger: an unexpected error and request.log lines carry the reqId of the request's access line", async () => {
    class Probe extends router('/probe') {
      @Get('/read') read(@Req() request: Request) {
        request.log.info({ taskId: 7 }, 'task read');
        request.log.debug('not written: below info');
        return { ok: true };
      }
      @Get('/boom') boom() {
        throw Object.assign(new TypeError('boom', { cause: new RangeError('deep') }), { code: 'E_BOOM' });
      }
    }
    const captured = new Captured();
    // Ids from the request, so that the test can tell which line is which.
    const app = new BaseRouter({ logger: captured.log.logger, requestIdHeader: 'x-request-id' }).includeRouter(new Probe());
    const server = await listen(withAccessLog(app.handler, captured.log), { host: '127.0.0.1', port: 0 });
    try {
      for (const [path, id] of [['/probe/read', 'r-1'], ['/probe/boom', 'r-2']]) {
        await (await fetch(`${serverUrl(server)}${path}`, { headers: { 'x-request-id': id } })).arrayBuffer();
      }
      for (let i = 0; i < 100 && captured.lines().length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      server.close();
    }
    const [read, readAccess, error, boomAccess] = captured.lines();
    assert.deepEqual({ ...read, time: 0 }, { level: 30, time: 0, reqId: 'r-1', taskId: 7, msg: 'task read' });
    assert.deepEqual([readAccess.msg, readAccess.reqId], ['request', 'r-1']);
    assert.deepEqual([error.level, error.reqId, error.msg], [50, 'r-2', 'GET /probe/boom failed']);
    // pino's error serializer: type, message and stack with their causes, and the error's own fields.
    const err = error.err as Record<string, unknown>;
    assert.deepEqual([err.type, err.message, err.code], ['TypeError', 'boom: deep', 'E_BOOM']);
    assert.match(String(err.stack), /^TypeError: boom\n {4}at [^]*\ncaused by: RangeError: deep\n {4}at /);
    assert.deepEqual([boomAccess.status, boomAccess.reqId], [500, 'r-2']);
  });
});

describe('BatchedDestination', () => {
  it('writes lines together: after the delay, when the next line might not fit in 64 KiB, or on flush, in order', async () => {
    const writes: string[] = [];
    const out = new BatchedDestination({ write: (chunk: Buffer | string, done?: () => void) => (writes.push(String(chunk)), done?.(), true) } as never);
    out.write('a\n');
    out.write('é\n');
    assert.deepEqual(writes, [], 'nothing written yet');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(writes, ['a\né\n'], 'one write after the delay, UTF-8 encoded');

    const long = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(long);
    // 62 lines are 63,488 bytes: the 63rd might take up to 3 bytes a character, more than what is left.
    assert.equal(writes.length, 2, 'written at once before a line that might not fit');
    assert.equal(writes[1], long.repeat(62));

    const huge = `${'y'.repeat(30_000)}\n`;
    out.write(huge);
    assert.deepEqual(writes.slice(2), [long.repeat(2), huge], 'a line too long to batch follows the pending ones');

    out.write('c\n');
    const flushed: string[] = [];
    out.flush(() => flushed.push('c'));
    assert.deepEqual([writes.at(-1), flushed], ['c\n', ['c']], 'flush writes what is pending, then calls back');
    await new Promise<void>((resolve) => out.flush(() => resolve()));
    assert.equal(writes.length, 5, 'an empty flush writes nothing, and still calls back');
  });
});
