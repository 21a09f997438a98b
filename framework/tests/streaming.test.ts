import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { BaseRouter, Get, JSONResponse, Middleware, router, StreamingResponse, type CallNext, type Request, type Response } from '../index';
import { Req } from '../param';
import { capturedLog, type LogLine } from './fixtures/captured-log';
import { getUnread, readAll } from './fixtures/http-get';
import { closeServer, startServer } from './fixtures/listening';
import { TestClient } from '../testing';

type Make = (request: Request) => unknown;
type Logged = LogLine[];

/** An app whose `GET /s` returns `make(request)`; errors it logs go to `logged`. */
function serve(make: Make, logged: Logged = [], ...middleware: Middleware[]): BaseRouter {
  class Streams extends router('/') {
    @Get('/s') stream(@Req() request: Request) { return make(request); }
    @Get('/ok') ok() { return { ok: true }; }
  }
  const { logger } = capturedLog('info', logged);
  return new BaseRouter({ logger }).includeRouter(Streams).addMiddleware(...middleware);
}

const request = (port: number, path = '/s') => getUnread(port, path);

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
before(() => process.on('unhandledRejection', onUnhandled));
after(() => {
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(unhandled, [], 'no unhandled rejection');
});

describe('returning a stream from a handler', () => {
  it('streams a Readable as application/octet-stream, chunked (it used to be JSON of the object)', async () => {
    const res = await new TestClient(serve(() => Readable.from(['one ', 'two']))).get('/s');
    assert.equal(res.status, 200);
    assert.equal(res.text, 'one two');
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
  });

  it('streams an async generator of strings (as UTF-8) and bytes, and a web ReadableStream', async () => {
    async function* parts() {
      yield 'héllo ';
      yield new Uint8Array([0x77, 0x6f]);
      yield Buffer.from('rld');
    }
    const generated = await new TestClient(serve(() => parts())).get('/s');
    assert.equal(generated.status, 200);
    assert.equal(generated.text, 'héllo world');
    assert.equal(generated.headers['content-type'], 'application/octet-stream');

    const web = await new TestClient(serve(() => new Blob(['from ', 'the web']).stream())).get('/s');
    assert.equal(web.text, 'from the web');
  });

  it('uses the status of a [stream, status] tuple, and sends bytes in a tuple as bytes', async () => {
    const res = await new TestClient(serve(() => [Readable.from(['made']), 201])).get('/s');
    assert.equal(res.status, 201);
    assert.equal(res.text, 'made');
    const bytes = await new TestClient(serve(() => [Buffer.from([1, 2]), 202])).get('/s');
    assert.equal(bytes.status, 202);
    assert.deepEqual([...bytes.body], [1, 2]);
    assert.equal(bytes.headers['content-type'], 'application/octet-stream');
  });

  it('still sends strings, arrays and plain objects as JSON', async () => {
    assert.equal((await new TestClient(serve(() => 'text')).get('/s')).text, '"text"');
    assert.equal((await new TestClient(serve(() => ['a', 'b'])).get('/s')).text, '["a","b"]');
    assert.equal((await new TestClient(serve(() => ({ iterator: 'no' }))).get('/s')).text, '{"iterator":"no"}');
  });
});

describe('StreamingResponse', () => {
  it('sends its status, content type and headers; a Content-Length given is kept', async () => {
    const csv = await new TestClient(
      serve(() => new StreamingResponse(Readable.from(['a,b\n', '1,2\n']), { status: 203, contentType: 'text/csv; charset=utf-8', headers: { 'x-rows': '1' } })),
    ).get('/s');
    assert.equal(csv.status, 203);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(csv.headers['x-rows'], '1');
    assert.equal(csv.text, 'a,b\n1,2\n');

    const sized = await new TestClient(serve(() => new StreamingResponse(Readable.from(['12345']), { headers: { 'content-length': '5', 'content-type': 'text/plain' } }))).get('/s');
    assert.equal(sized.headers['content-length'], '5');
    assert.equal(sized.headers['transfer-encoding'], undefined);
    assert.equal(sized.headers['content-type'], 'text/plain');
    assert.equal(sized.text, '12345');
  });

  it('is seen by middleware, which may add headers', async () => {
    class Tag extends Middleware {
      async dispatch(request: Request, callNext: CallNext) {
        const response = await callNext(request);
        response.headers.set('x-streamed', String(response instanceof StreamingResponse));
        return response;
      }
    }
    const res = await new TestClient(serve(() => Readable.from(['x']), [], new Tag())).get('/s');
    assert.equal(res.headers['x-streamed'], 'true');
    assert.equal(res.text, 'x');
  });

  it('answers HEAD without a body and never starts the generator', async () => {
    let started = false;
    async function* never() {
      started = true;
      yield 'x';
    }
    const res = await new TestClient(serve(() => never())).head('/s');
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 0);
    assert.equal(started, false);
  });

  it('reads the source only as fast as the client: a stalled reader stalls the generator', async () => {
    let produced = 0;
    let stopped = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    async function* endless() {
      try {
        for (;;) {
          produced += chunk.length;
          yield chunk;
        }
      } finally {
        stopped = true;
      }
    }
    const { server, port } = await startServer(serve(() => new StreamingResponse(endless())));
    try {
      const res = await request(port);
      res.pause();
      await sleep(300);
      const stalled = produced;
      await sleep(300);
      assert.equal(produced, stalled, 'nothing produced while the client reads nothing');
      assert.ok(produced < 32 * 1024 * 1024, `${produced} bytes produced for a client that read nothing`);
      res.destroy();
      for (let i = 0; i < 100 && !stopped; i++) await sleep(10);
      assert.equal(stopped, true, "the generator's finally ran when the client went away");
    } finally {
      await closeServer(server);
    }
  });

  it('stops a generator waiting on something when the client goes away: signal aborts, finally runs', async () => {
    const finished: string[] = [];
    let response: StreamingResponse | undefined;
    async function* waiting() {
      try {
        yield 'first\n';
        await sleep(60_000, undefined, { signal: response!.signal }); // a queue that stays quiet
        yield 'never\n';
      } finally {
        finished.push(response!.signal.aborted ? 'aborted' : 'not aborted');
      }
    }
    const { server, port } = await startServer(serve(() => (response = new StreamingResponse(waiting()))));
    try {
      const res = await request(port);
      const first = await new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())));
      assert.equal(first, 'first\n');
      res.destroy();
      for (let i = 0; i < 100 && finished.length === 0; i++) await sleep(10);
      assert.deepEqual(finished, ['aborted']);
      assert.equal((await fetch(`http://127.0.0.1:${port}/ok`)).status, 200, 'serves on');
    } finally {
      await closeServer(server);
    }
  });

  it('cuts the response and logs once when the source fails half-way; the server serves on', async () => {
    const logged: Logged = [];
    async function* failing() {
      yield 'partial ';
      await sleep(20);
      throw new Error('database went away');
    }
    const { server, port } = await startServer(serve(() => failing(), logged));
    try {
      const res = await request(port);
      assert.equal(res.statusCode, 200);
      const { text, cut } = await readAll(res);
      assert.equal(text, 'partial ');
      assert.equal(cut, true, 'the client sees an incomplete response, not a complete short one');
      await sleep(20);
      assert.equal(logged.length, 1);
      assert.equal(logged[0].msg, 'GET /s: the response stream failed');
      assert.match(String(logged[0].reqId), /./);
      assert.equal(logged[0].err?.message, 'database went away');
      assert.equal((await fetch(`http://127.0.0.1:${port}/ok`)).status, 200);
    } finally {
      await closeServer(server);
    }
  });

  it('cuts the response and logs when the source yields something that is not text or bytes', async () => {
    const logged: Logged = [];
    async function* wrong() {
      yield 'ok ';
      yield 42 as unknown as string;
    }
    const { server, port } = await startServer(serve(() => new StreamingResponse(wrong()), logged));
    try {
      const { cut } = await readAll(await request(port));
      assert.equal(cut, true);
      await sleep(20);
      assert.equal(logged.length, 1);
      assert.equal(logged[0].err?.code, 'ERR_INVALID_ARG_TYPE');
    } finally {
      await closeServer(server);
    }
  });

  it('does not log a client that goes away', async () => {
    const logged: Logged = [];
    async function* slow() {
      for (;;) {
        yield 'tick\n';
        await sleep(10);
      }
    }
    const { server, port } = await startServer(serve(() => slow(), logged));
    try {
      const res = await request(port);
      await new Promise((resolve) => res.once('data', resolve));
      res.destroy();
      await sleep(100);
      assert.deepEqual(logged, []);
    } finally {
      await closeServer(server);
    }
  });
});

describe('stream responses and middleware that replace them', () => {
  it('a response replaced by middleware never starts its generator', async () => {
    let started = false;
    async function* dropped() {
      started = true;
      yield 'x';
    }
    class Replace extends Middleware {
      async dispatch(request: Request, callNext: CallNext): Promise<Response> {
        await callNext(request);
        return new JSONResponse({ replaced: true });
      }
    }
    const res = await new TestClient(serve(() => dropped(), [], new Replace())).get('/s');
    assert.deepEqual(res.json(), { replaced: true });
    assert.equal(started, false);
  });

  it('a Readable whose response was replaced is destroyed once the response is sent', async () => {
    let source: Readable | undefined;
    class Replace extends Middleware {
      async dispatch(request: Request, callNext: CallNext): Promise<Response> {
        await callNext(request);
        return new JSONResponse({ replaced: true });
      }
    }
    const make = () => (source = new Readable({ read() {} })); // a source that would never end by itself
    const { server, port } = await startServer(serve(make, [], new Replace()));
    try {
      assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/s`)).json(), { replaced: true });
      await sleep(20);
      assert.equal(source!.destroyed, true);
    } finally {
      await closeServer(server);
    }
  });
});
