import type { RateLimitHit } from './store';

// The first ring's size: a store that only ever sees a few clients stays small; the ring doubles as keys come.
const FIRST_CAPACITY = 1024;

/**
 * The windows in a ring of slots, in the order they started: `head` is the oldest, a new window takes the slot
 * after the newest. A key whose window restarts moves to a new slot and leaves a hole (`keys[slot]` undefined)
 * that the head skips. `#slots` finds a key's slot. The ring grows to a quarter more slots than `maxKeys`: once
 * that is full, a fifth of it or more is holes, which one copy squeezes out. Walking the head forward is the only
 * scan, and each slot is passed once per window it held: every operation is O(1), amortized over the windows
 * started.
 */
export class WindowRing {
  readonly #slots = new Map<string, number>();
  readonly #maxSlots: number;
  #keys: Array<string | undefined>;
  // Each slot's window: when it ends (ms) at 2 * slot, its count at 2 * slot + 1 (one cache line for both).
  #windows: Float64Array;
  #head = 0;
  // Slots from the head to the newest window, holes included.
  #used = 0;

  constructor(
    private readonly maxKeys: number,
    /** The clock, in milliseconds. */
    readonly now: () => number,
  ) {
    this.#maxSlots = maxKeys + Math.ceil(maxKeys / 4);
    const slots = Math.min(this.#maxSlots, FIRST_CAPACITY);
    this.#keys = new Array<string | undefined>(slots).fill(undefined);
    this.#windows = new Float64Array(2 * slots);
  }

  /** Keys held (some of whose windows may have ended: they go as new windows start). */
  get size(): number {
    return this.#slots.size;
  }

  /** Counts one hit of `key`: in its window if one is running, else in a new one of `windowMs`. */
  hit(key: string, windowMs: number): RateLimitHit {
    const at = this.now();
    const windows = this.#windows;
    const slot = this.#slots.get(key);
    if (slot !== undefined) {
      const resetAt = windows[2 * slot];
      if (resetAt > at) return { count: ++windows[2 * slot + 1], resetMs: resetAt - at };
      this.#keys[slot] = undefined;
      this.#slots.delete(key);
    }
    this.#dropExpired(at);
    if (this.#slots.size >= this.maxKeys) this.#dropOldest();
    if (this.#used === this.#keys.length) this.#relayout();
    const free = (this.#head + this.#used) % this.#keys.length;
    this.#used++;
    this.#keys[free] = key;
    this.#windows[2 * free] = at + windowMs;
    this.#windows[2 * free + 1] = 1;
    this.#slots.set(key, free);
    return { count: 1, resetMs: windowMs };
  }

  /** Milliseconds left in `key`'s window, 0 when it has none running; counts nothing. */
  msLeft(key: string): number {
    const slot = this.#slots.get(key);
    return slot === undefined ? 0 : Math.max(0, this.#windows[2 * slot] - this.now());
  }

  // Drops the ended windows (and holes) from the oldest, up to the first window still running.
  #dropExpired(at: number): void {
    while (this.#used > 0) {
      const key = this.#keys[this.#head];
      if (key !== undefined) {
        if (this.#windows[2 * this.#head] > at) return;
        this.#slots.delete(key);
      }
      this.#advance();
    }
  }

  // Drops the oldest window, running or not: the bound on keys.
  #dropOldest(): void {
    while (this.#keys[this.#head] === undefined) this.#advance();
    this.#slots.delete(this.#keys[this.#head]!);
    this.#advance();
  }

  #advance(): void {
    this.#keys[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#keys.length;
    this.#used--;
  }

  // The ring is full: copies its windows, oldest first and without holes, into a ring twice as large (up to
  // `#maxSlots`), or as large when a quarter or more of it is holes.
  #relayout(): void {
    const old = this.#keys.length;
    const size = this.#slots.size <= old - old / 4 ? old : Math.min(this.#maxSlots, old * 2);
    const keys = new Array<string | undefined>(size).fill(undefined);
    const windows = new Float64Array(2 * size);
    let next = 0;
    for (let i = 0; i < this.#used; i++) {
      const slot = (this.#head + i) % old;
      const key = this.#keys[slot];
      if (key === undefined) continue;
      keys[next] = key;
      windows[2 * next] = this.#windows[2 * slot];
      windows[2 * next + 1] = this.#windows[2 * slot + 1];
      this.#slots.set(key, next++);
    }
    this.#keys = keys;
    this.#windows = windows;
    this.#head = 0;
    this.#used = next;
  }
}
