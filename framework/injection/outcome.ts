/**
 * How a request ended, as a request-scoped instance's `onRequestEnd(outcome)` sees it: `ok` when the response
 * status is below 400, no error was thrown and the client is still connected.
 *
 * @example
 * ```ts
 * @Injectable({ scope: 'request' })
 * class UnitOfWork {
 *   async onRequestEnd(outcome: RequestOutcome) {
 *     if (outcome.ok) await this.trx.commit().execute();
 *     else await this.trx.rollback().execute();
 *   }
 * }
 * ```
 */
export interface RequestOutcome {
  /** The response status is below 400, nothing was thrown, and the client did not disconnect. */
  ok: boolean;
  /** The status of the route's response; undefined when none was made. */
  status: number | undefined;
  /** What the handler (or a dependency) threw, an `HTTPException` included. */
  error?: unknown;
  /** The client disconnected before the response was written. */
  aborted: boolean;
}

/**
 * What a request-scoped instance may define: called once per request, after its response is ready (a class
 * needs no `implements`: the app finds the method by name).
 *
 * @example
 * ```ts
 * @Injectable({ scope: 'request' })
 * class AuditTrail implements OnRequestEnd {
 *   readonly lines: string[] = [];
 *   onRequestEnd(outcome: RequestOutcome) { if (outcome.ok) flush(this.lines); }
 * }
 * ```
 */
export interface OnRequestEnd {
  onRequestEnd(outcome: RequestOutcome): void | Promise<void>;
}
