import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { BaseRouter, Get, Injectable, InjectionToken, router, StreamingResponse, type RequestOutcome } from '../index';
import { Depends } from '../param';
import { TestClient } from '../testing';
import { capturedLog } from './fixtures/captured-log';

/** A request-scoped class named `name` that logs its making and teardown (with `ok` and the error's message) to `calls`. */
function recorded(calls: string[], name: string): new () => object {
  const cls = class {
    constructor() { calls.push(`new ${name}`); }
    onRequestEnd(outcome: RequestOutcome) {
      calls.push(`end ${name} ok=${outcome.ok} status=${outcome.status} error=${outcome.error instanceof Error ? outcome.error.message : outcome.error}`);
    }
  };
  Injectable({ scope: 'request' })(cls);
  return cls;
}

describe('request-scoped dependencies under hostile conditions', () => {
  it('answers a plain 500 when a constructor throws, tearing down what was made before it, and logs the error', async () => {
    const calls: string[] = [];
    const First = recorded(calls, 'First');
    @Injectable({ scope: 'request' })
    class Broken {
      constructor(readonly first: object) { throw new Error('no connection'); }
    }
    Reflect.defineMetadata('design:paramtypes', [First], Broken);
    @Injectable()
    class R extends router('/r') {
      @Get() one(@Depends() broken: Broken) { calls.push('handler'); return String(broken); }
    }
    const { logger, lines } = capturedLog();
    const res = await new TestClient(new BaseRouter({ logger, docs: false, sourceTypes: false }).includeRouter(R)).get('/r');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.doesNotMatch(res.text, /no connection/);
    assert.deepEqual(calls, ['new First', 'end First ok=false status=500 error=no connection']);
    assert.ok(lines.some((line) => line.err?.message === 'no connection'), 'the error is logged');
  });

  it('answers a 500 when an async factory rejects, and tears down the class made before it', async () => {
    const calls: string[] = [];
    const Before = recorded(calls, 'Before');
    const CONNECTION = new InjectionToken<string>('Connection');
    @Injectable()
    class R extends router('/r') {
      @Get() one(@Depends() before: object, @Depends(CONNECTION) connection: string) { return { connection, before: String(before) }; }
    }
    Reflect.defineMetadata('design:paramtypes', [Before, String], R.prototype, 'one');
    const app = new BaseRouter({ logger: capturedLog().logger, docs: false, sourceTypes: false })
      .provide({ provide: CONNECTION, scope: 'request', useFactory: async () => { throw new Error('pool exhausted'); } })
      .includeRouter(R);
    const res = await new TestClient(app).get('/r');
    assert.equal(res.status, 500);
    assert.deepEqual(calls, ['new Before', 'end Before ok=false status=500 error=pool exhausted']);
  });

  it('logs a teardown that throws, turns an ok response into a 500, and still tears down the others', async () => {
    const calls: string[] = [];
    const Outer = recorded(calls, 'Outer');
    @Injectable({ scope: 'request' })
    class Failing {
      onRequestEnd(): Promise<void> { calls.push('end Failing'); return Promise.reject(new Error('commit failed')); }
    }
    @Injectable()
    class R extends router('/r') {
      @Get() ok(@Depends() outer: object, @Depends() failing: Failing) { return { made: [String(outer), String(failing)].length }; }
      @Get('/missing') missing(@Depends() outer: object, @Depends() failing: Failing) { return [{ made: [outer, failing].length }, 404]; }
    }
    for (const method of ['ok', 'missing']) Reflect.defineMetadata('design:paramtypes', [Outer, Failing], R.prototype, method);
    const { logger, lines } = capturedLog();
    const client = new TestClient(new BaseRouter({ logger, docs: false, sourceTypes: false }).includeRouter(R));
    const res = await client.get('/r');
    assert.equal(res.status, 500);
    assert.deepEqual(res.json(), { error: 'Internal Server Error' });
    assert.deepEqual(calls, ['new Outer', 'end Failing', 'end Outer ok=true status=200 error=undefined']);
    assert.ok(lines.some((line) => line.err?.message === 'commit failed' && /onRequestEnd/.test(line.msg ?? '')));
    calls.length = 0;
    const missing = await client.get('/r/missing');
    assert.equal(missing.status, 404, 'a response that was not ok keeps its status');
  });

  it('tears down a streamed response once the response is ready, before its body is written', async () => {
    const calls: string[] = [];
    @Injectable({ scope: 'request' })
    class Cursor {
      open = true;
      onRequestEnd() { this.open = false; calls.push('end Cursor'); }
    }
    @Injectable()
    class R extends router('/r') {
      @Get() stream(@Depends() cursor: Cursor) {
        const rows = ['a', 'b'];   // read while the cursor is open: the body is written after the teardown
        return new StreamingResponse((async function* () {
          for (const row of rows) {
            calls.push(`chunk ${row} open=${cursor.open}`);
            yield row;
          }
        })());
      }
    }
    const res = await new TestClient(new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(R)).get('/r');
    assert.equal(res.text, 'ab');
    assert.deepEqual(calls, ['end Cursor', 'chunk a open=false', 'chunk b open=false']);
  });

  it('never shares an instance between concurrent requests: 100 in parallel get 100 instances', async () => {
    const seen = new Set<object>();
    let made = 0;
    @Injectable({ scope: 'request' })
    class Counter {
      readonly serial = ++made;
      ended = 0;
      onRequestEnd() { this.ended++; }
    }
    @Injectable()
    class R extends router('/r') {
      @Get('', { shapeResponse: false }) async one(@Depends() counter: Counter, @Depends() again: Counter) {
        seen.add(counter);
        await new Promise((resolve) => setImmediate(resolve));
        return { serial: counter.serial, same: counter === again };
      }
    }
    const client = new TestClient(new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(R));
    const responses = await Promise.all(Array.from({ length: 100 }, () => client.get('/r')));
    const serials = responses.map((res) => res.json().serial as number);
    assert.equal(new Set(serials).size, 100);
    assert.ok(responses.every((res) => res.json().same === true));
    assert.equal(seen.size, 100);
    assert.ok([...seen].every((counter) => (counter as Counter).ended === 1), 'each torn down once');
  });

  it('keeps nothing of a request once its response is written: its instances can be collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const refs: Array<WeakRef<object>> = [];
    @Injectable({ scope: 'request' })
    class Heavy {
      readonly data = Buffer.alloc(1024);
      constructor() { refs.push(new WeakRef(this)); }
    }
    @Injectable()
    class R extends router('/r') {
      @Get() one(@Depends() heavy: Heavy) { return { size: heavy.data.length }; }
    }
    const client = new TestClient(new BaseRouter({ docs: false, sourceTypes: false }).includeRouter(R));
    for (let i = 0; i < 20; i++) assert.equal((await client.get('/r')).status, 200);
    // Collected once nothing holds them: wait for the condition, a few collections at most.
    for (let round = 0; round < 20 && refs.some((ref) => ref.deref() !== undefined); round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    assert.equal(refs.filter((ref) => ref.deref() !== undefined).length, 0);
  });
});
