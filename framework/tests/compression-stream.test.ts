import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { BaseRouter, Get, router, StreamingResponse } from '../index';
import { compression } from '../plugins';
import { capturedLog, type LogLine } from './fixtures/captured-log';
import { getUnread } from './fixtures/http-get';
import { listening } from './fixtures/listening';

/** Polls `condition` every 10 ms until it holds, for at most `ms`. */
async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (condition()) return true;
  return condition();
}

/** Resolves once `read()` has stopped changing for `quiet` ms (backpressure reached), at most `ms`. */
async function settled(read: () => number, quiet = 250, ms = 10_000): Promise<number> {
  let last = read();
  let since = Date.now();
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) {
    const now = read();
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= quiet) break;
  }
  return last;
}

function body(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

const state = { produced: 0, stopped: 0, failAfter: Infinity };
// Hex of random bytes: text a compressor halves at best, so its output fills the socket as the input flows.
const chunk = () => randomBytes(8 * 1024).toString('hex');

class Streams extends router('/') {
  @Get('/endless') endless() {
    return new StreamingResponse((async function* () {
      try {
        for (let i = 0; ; i++) {
          if (i >= state.failAfter) throw new Error('the source broke');
          const text = chunk();
          state.produced += text.length;
          yield text;
        }
      } finally {
        state.stopped++;
      }
    })(), { contentType: 'text/plain' });
  }
  @Get('/lines') lines() {
    return new StreamingResponse((async function* () {
      for (let i = 0; i < 2_000; i++) yield `line ${i}\n`;
    })(), { contentType: 'text/plain' });
  }
}

const logged: LogLine[] = [];
const server = listening(new BaseRouter({ logger: capturedLog('info', logged).logger, sourceTypes: false }).includeRouter(Streams).register(compression()));

describe('compressed streams over a real socket', () => {
  it('a stream round trip: chunked gzip that decompresses to the source', async () => {
    const res = await getUnread(server.port, '/lines', { 'accept-encoding': 'gzip' });
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    const text = gunzipSync(await body(res)).toString();
    assert.equal(text, Array.from({ length: 2_000 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('backpressure: a client that reads nothing stops the source (memory bounded); gone, it destroys it (finally runs)', async () => {
    Object.assign(state, { produced: 0, stopped: 0, failAfter: Infinity });
    const res = await getUnread(server.port, '/endless', { 'accept-encoding': 'gzip' });
    assert.equal(res.headers['content-encoding'], 'gzip');
    res.pause();
    const stalled = await settled(() => state.produced);
    assert.ok(stalled < 32 * 1024 * 1024, `${stalled} bytes produced for a client that read nothing`);
    assert.equal(state.stopped, 0);
    res.destroy();
    assert.ok(await until(() => state.stopped === 1), "the generator's finally ran when the client went away");
  });

  it('a client that reads slowly gets valid gzip; one that stops half-way stops the source', async () => {
    Object.assign(state, { produced: 0, stopped: 0, failAfter: Infinity });
    const res = await getUnread(server.port, '/endless', { 'accept-encoding': 'gzip' });
    const gunzip = createGunzip();
    let text = 0;
    gunzip.on('data', (data: Buffer) => (text += data.length));
    res.pipe(gunzip);
    assert.ok(await until(() => text > 1024 * 1024), 'a megabyte decompressed');
    res.destroy();
    assert.ok(await until(() => state.stopped === 1));
  });

  it('a source that fails mid-way cuts the response, logged once; the server serves on', async () => {
    Object.assign(state, { produced: 0, stopped: 0, failAfter: 50 }); // past the compressor's first output: the headers are out
    logged.length = 0;
    const res = await getUnread(server.port, '/endless', { 'accept-encoding': 'gzip' });
    assert.equal(res.headers['content-encoding'], 'gzip');
    const cut = await new Promise<boolean>((resolve) => {
      res.resume();
      res.on('end', () => resolve(false)).on('error', () => resolve(true)).on('aborted', () => resolve(true));
    });
    assert.equal(cut, true, 'the response never terminated cleanly');
    assert.ok(await until(() => logged.some((line) => line.msg === 'GET /endless: the response stream failed' && line.err?.message === 'the source broke')));
    assert.equal(logged.length, 1, 'logged once');
    const again = await getUnread(server.port, '/lines', { 'accept-encoding': 'gzip' });
    assert.equal(gunzipSync(await body(again)).toString().split('\n').length, 2_001);
  });
});
