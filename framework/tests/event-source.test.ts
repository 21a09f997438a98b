import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, mock } from 'node:test';
import { BaseRouter, EventSourceResponse, Get, router, type Request } from '../index';
import { TrellisError } from '../framework-error';
import type { EventSourceInit } from '../responses/event-source';
import type { ServerSentEvent } from '../responses/server-sent-event';
import { Req } from '../param';
import { capturedLog, type LogLine } from './fixtures/captured-log';
import { getUnread, readAll } from './fixtures/http-get';
import { closeServer, startServer } from './fixtures/listening';
import { TestClient } from '../testing';

type Events = (request: Request) => AsyncIterable<ServerSentEvent | string>;
type Logged = LogLine[];

/** An app whose `GET /events` answers an EventSourceResponse of `events(request)`. */
function serve(events: Events, init?: EventSourceInit, logged: Logged = []): BaseRouter {
  class Feed extends router('/') {
    @Get('/events') events(@Req() request: Request) { return new EventSourceResponse(events(request), init); }
  }
  const { logger } = capturedLog('info', logged);
  return new BaseRouter({ logger }).includeRouter(Feed);
}

async function* list(...events: Array<ServerSentEvent | string>) {
  yield* events;
}

const request = (port: number, headers: Record<string, string> = {}) => getUnread(port, '/events', headers);

/** Resolves once `res` has sent text containing `marker`, with all the text so far. */
function readUntil(res: IncomingMessage, marker: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    const onData = (chunk: string) => {
      text += chunk;
      if (text.includes(marker)) {
        res.off('data', onData);
        resolve(text);
      }
    };
    res.on('data', onData);
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(10);
}

describe('EventSourceResponse', () => {
  it('sends the event-stream headers and each event in the wire format', async () => {
    const events = list(
      'plain',
      { data: { id: 1, title: 'Write docs' } },
      { event: 'task', id: 7, data: 'one\ntwo\r\nthree\rfour' },
      { id: 'a-1', retry: 3000 },
      { comment: 'just saying\nand more', data: '' },
      { data: [1, 2] },
      { data: 'x' },
    );
    const res = await new TestClient(serve(() => events, { ping: 0 })).get('/events');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['x-accel-buffering'], 'no');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(
      res.text,
      ': ping\n\n' +
        'data: plain\n\n' +
        'data: {"id":1,"title":"Write docs"}\n\n' +
        'event: task\nid: 7\ndata: one\ndata: two\ndata: three\ndata: four\n\n' +
        'id: a-1\nretry: 3000\n\n' +
        ': just saying\n: and more\ndata: \n\n' +
        'data: [1,2]\n\n' +
        'data: x\n\n',
    );
  });

  it('keeps the headers it is given, and sets its own type', async () => {
    const init = { status: 201, headers: { 'cache-control': 'no-store', 'content-type': 'text/plain', 'x-feed': 'tasks' } };
    const res = await new TestClient(serve(() => list('x'), init)).get('/events');
    assert.equal(res.status, 201);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-feed'], 'tasks');
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
  });

  it('reads Last-Event-ID to resume where a reconnecting browser left off', async () => {
    const all = ['a', 'b', 'c', 'd'];
    const resume = (request: Request) => {
      const after = Number(request.headers['last-event-id'] ?? -1);
      return list(...all.flatMap((data, id) => (id > after ? [{ id, data }] : [])));
    };
    const res = await new TestClient(serve(resume, { ping: 0 })).get('/events', { headers: { 'last-event-id': '1' } });
    assert.equal(res.text, ': ping\n\nid: 2\ndata: c\n\nid: 3\ndata: d\n\n');
  });

  it('refuses line breaks in event names and ids and a bad retry: the stream is cut there and the error logged', async () => {
    const forged: Array<[ServerSentEvent, string]> = [
      [{ event: 'task\ndata: forged', data: 'x' }, 'event'],
      [{ id: '1\r\nevent: admin', data: 'x' }, 'id'],
      [{ id: 'a\0b', data: 'x' }, 'id'],
      [{ event: 'a\rb' }, 'event'],
      [{ retry: -1 }, 'retry'],
      [{ retry: 1.5 }, 'retry'],
    ];
    for (const [event, field] of forged) {
      const logged: Logged = [];
      const { server, port } = await startServer(serve(() => list({ data: 'before' }, event, { data: 'after' }), { ping: 0 }, logged));
      try {
        const { text, cut } = await readAll(await request(port));
        assert.equal(text, ': ping\n\ndata: before\n\n', field);
        assert.equal(cut, true);
        await until(() => logged.length > 0);
        const error = logged[0].err!;
        assert.equal(error.code, 'TRELLIS_ERR_EVENT_STREAM');
        assert.match(error.message, new RegExp(`^Invalid ${field} `));
      } finally {
        await closeServer(server);
      }
    }
  });

  it('refuses a ping that is not a number of milliseconds from 0', () => {
    for (const ping of [-1, Number.NaN, Infinity, 2 ** 31]) {
      assert.throws(() => new EventSourceResponse(list(), { ping }), (e: TrellisError) => e.code === 'TRELLIS_ERR_EVENT_STREAM', String(ping));
    }
  });

  it('pings every `ping` ms while no event comes, and stops the timer when the stream ends', async () => {
    const intervals = mock.method(globalThis, 'setInterval');
    const cleared = mock.method(globalThis, 'clearInterval');
    try {
      async function* late() {
        await sleep(250);
        yield { data: 'late' };
      }
      const { server, port } = await startServer(serve(() => late(), { ping: 50 }));
      try {
        const { text, cut } = await readAll(await request(port));
        assert.equal(cut, false);
        assert.match(text, /^(: ping\n\n){3,}data: late\n\n$/);
        const timer = intervals.mock.calls.find((call) => call.arguments[1] === 50)!.result;
        assert.ok(cleared.mock.calls.some((call) => call.arguments[0] === timer), 'the ping timer was cleared');
      } finally {
        await closeServer(server);
      }
    } finally {
      intervals.mock.restore();
      cleared.mock.restore();
    }
  });

  it('cleans up when the client goes away: the timer stops, the generator returns, signal aborts', async () => {
    const intervals = mock.method(globalThis, 'setInterval');
    const cleared = mock.method(globalThis, 'clearInterval');
    let response: EventSourceResponse | undefined;
    const finished: boolean[] = [];
    async function* ticks() {
      try {
        for (let i = 0; ; i++) {
          yield { id: i, data: `tick ${i}` };
          await sleep(20);
        }
      } finally {
        finished.push(response!.signal.aborted);
      }
    }
    class Ticks extends router('/') {
      @Get('/events') events() { return (response = new EventSourceResponse(ticks(), { ping: 1_000 })); }
    }
    const { server, port } = await startServer(new BaseRouter().includeRouter(Ticks));
    try {
      const res = await request(port);
      assert.match(await readUntil(res, 'tick 2\n\n'), /^: ping\n\nid: 0\ndata: tick 0\n\nid: 1\n/);
      res.destroy();
      await until(() => finished.length > 0);
      assert.deepEqual(finished, [true], "the generator's finally ran, after signal aborted");
      const timer = intervals.mock.calls.find((call) => call.arguments[1] === 1_000)!.result;
      assert.ok(cleared.mock.calls.some((call) => call.arguments[0] === timer), 'the ping timer was cleared');
    } finally {
      intervals.mock.restore();
      cleared.mock.restore();
      await closeServer(server);
    }
  });

  it('stops a generator blocked on a quiet source through signal when the client goes away', async () => {
    let response: EventSourceResponse | undefined;
    let finished = false;
    async function* quiet() {
      try {
        yield 'hello';
        await sleep(60_000, undefined, { signal: response!.signal });
      } finally {
        finished = true;
      }
    }
    class Quiet extends router('/') {
      @Get('/events') events() { return (response = new EventSourceResponse(quiet(), { ping: 0 })); }
    }
    const logged: Logged = [];
    const { server, port } = await startServer(new BaseRouter({ logger: capturedLog('info', logged).logger }).includeRouter(Quiet));
    try {
      const res = await request(port);
      await readUntil(res, 'data: hello\n\n');
      res.destroy();
      await until(() => finished);
      assert.equal(finished, true);
      assert.deepEqual(logged, [], 'a client going away is not an error');
    } finally {
      await closeServer(server);
    }
  });

  it('is not cut by sendTimeout while no event comes (the client is not stalled)', async () => {
    async function* slow() {
      yield 'first';
      await sleep(700);
      yield 'second';
    }
    const { server, port } = await startServer(serve(() => slow(), { ping: 0 }), { sendTimeout: 200 });
    try {
      const { text, cut } = await readAll(await request(port));
      assert.equal(cut, false);
      assert.equal(text, ': ping\n\ndata: first\n\ndata: second\n\n');
    } finally {
      await closeServer(server);
    }
  });

  it('answers HEAD with the headers only, never starting the generator', async () => {
    let started = false;
    async function* never() {
      started = true;
      yield 'x';
    }
    const res = await new TestClient(serve(() => never())).head('/events');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(res.body.length, 0);
    assert.equal(started, false);
  });
});
