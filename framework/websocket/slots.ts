/** Why an upgrade found no slot: the process is full (503), or this client holds its share (429). */
export type NoSlot = 'process' | 'client';

/**
 * The WebSocket connections of one process, counted in all and per client address: a slot is taken when an
 * upgrade is admitted (before its handshake completes, so a burst of upgrades cannot overshoot) and given back
 * when its socket closes.
 */
export class ConnectionSlots {
  readonly #max: number;
  readonly #perClient: number;
  readonly #byClient = new Map<string, number>();
  #open = 0;

  constructor(max: number, perClient: number) {
    this.#max = max;
    this.#perClient = perClient;
  }

  /** Connections open (or being opened) now. */
  get open(): number {
    return this.#open;
  }

  /** Takes a slot for `client`: a function giving it back (once), or why there is none. */
  take(client: string): (() => void) | NoSlot {
    if (this.#open >= this.#max) return 'process';
    const held = this.#byClient.get(client) ?? 0;
    if (held >= this.#perClient) return 'client';
    this.#open++;
    this.#byClient.set(client, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#open--;
      const left = this.#byClient.get(client)! - 1;
      if (left === 0) this.#byClient.delete(client);
      else this.#byClient.set(client, left);
    };
  }
}
