import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryStore, type RateLimitHit } from '../plugins';

/** A clock the test moves: windows end without sleeping. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/**
 * What memoryStore() promises, written the simplest way (its code before issue 40): windows in a Map in the order
 * they started, the ended ones dropped from the oldest as a new window starts, the oldest dropped past `maxKeys`.
 */
function reference(maxKeys: number, now: () => number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    get size() {
      return windows.size;
    },
    hit(key: string, windowMs: number): RateLimitHit {
      const at = now();
      let window = windows.get(key);
      if (window && window.resetAt <= at) {
        windows.delete(key);
        window = undefined;
      }
      if (!window) {
        for (const [old, { resetAt }] of windows) {
          if (resetAt > at) break;
          windows.delete(old);
        }
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        windows.set(key, (window = { count: 0, resetAt: at + windowMs }));
      }
      window.count++;
      return { count: window.count, resetMs: window.resetAt - at };
    },
  };
}

describe('memoryStore(): bounded', () => {
  it('drops the oldest window past maxKeys and the expired ones as hits come', () => {
    const time = clock();
    const store = memoryStore({ maxKeys: 100, now: time.now });
    for (let i = 0; i < 10_000; i++) store.hit(`k${i}`, 60_000);
    assert.equal(store.size, 100);
    assert.equal(store.hit('k9999', 60_000).count, 2);
    assert.equal(store.hit('k0', 60_000).count, 1);
    time.advance(60_000);
    store.hit('fresh', 60_000);
    assert.equal(store.size, 1);
  });

  it('counts as the simplest store would: 60,000 random hits, windows of three lengths, a clock that moves', () => {
    // [maxKeys, one hit in `tick` moves the clock]: a slow clock lets the store grow before windows end.
    for (const [maxKeys, tick] of [[1, 4], [7, 4], [50, 4], [2_000, 4], [3_000, 400]]) {
      const time = clock();
      const store = memoryStore({ maxKeys, now: time.now });
      const model = reference(maxKeys, time.now);
      let seed = maxKeys;
      const random = (below: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below);
      const windows = [1_000, 5_000, 60_000];
      for (let i = 0; i < 60_000; i++) {
        time.advance(random(tick) === 0 ? random(700) : 0);
        const key = `k${random(maxKeys * 3 + 5)}`;
        const windowMs = windows[random(3)];
        assert.deepEqual(store.hit(key, windowMs), model.hit(key, windowMs), `maxKeys ${maxKeys}, hit ${i} of ${key}`);
        assert.equal(store.size, model.size);
      }
    }
  });

  it('a hit past the bound costs what one below it costs: 200,000 new keys through a full store of 100,000', () => {
    // Before issue 40 each new key past the bound searched from the head of a Map of deleted entries: x20-x100.
    const store = memoryStore();
    const perHit = (from: number, to: number) => {
      const started = process.hrtime.bigint();
      for (let i = from; i < to; i++) store.hit(`default:a:${i}`, 60_000);
      return Number(process.hrtime.bigint() - started) / (to - from);
    };
    const below = perHit(0, 100_000);
    const past = perHit(100_000, 300_000);
    assert.equal(store.size, 100_000);
    assert.ok(past < 5 * below, `${past.toFixed(0)} ns a hit past the bound, ${below.toFixed(0)} ns below it`);
  });
});
