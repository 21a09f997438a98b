import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartBackoff } from '../project/restart-backoff';

describe('RestartBackoff', () => {
  it('waits 100 ms after a crash, doubling per crash in a row up to 5 s', () => {
    const backoff = new RestartBackoff();
    const delays = Array.from({ length: 9 }, () => backoff.next(50).delayMs);
    assert.deepEqual(delays, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
    assert.equal(backoff.next(9_999).streak, 10);
    for (let i = 0; i < 2000; i++) backoff.next(0);
    assert.equal(backoff.next(0).delayMs, 5000, 'a long streak stays at the cap');
  });

  it('starts a new streak after a worker that served 10 s', () => {
    const backoff = new RestartBackoff();
    backoff.next(0);
    backoff.next(0);
    assert.deepEqual(backoff.next(10_000), { delayMs: 100, streak: 1 });
    assert.deepEqual(backoff.next(5), { delayMs: 200, streak: 2 });
  });
});
