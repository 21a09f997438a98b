import type { Logger } from '../core/logger';

/**
 * Logs a store's outage once when it starts and once when it ends, whichever of the limits sharing the store
 * notices: a request per second against a Redis that is gone writes two lines, not one per request.
 */
export class StoreOutage {
  #down = false;

  constructor(
    private readonly logger: Logger,
    private readonly onStoreError: 'open' | 'closed',
  ) {}

  failed(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    const reason = error instanceof Error ? error.message : String(error);
    const action = this.onStoreError === 'open' ? 'letting requests through uncounted' : 'answering 503';
    this.logger.warn({ reason, onStoreError: this.onStoreError }, `rate limit store unavailable: ${action} until it is back`);
  }

  succeeded(): void {
    if (!this.#down) return;
    this.#down = false;
    this.logger.info('rate limit store available again: counting requests');
  }
}
