import type { Logger } from '../core/logger';
import { TrellisError } from '../framework-error';

/**
 * What a service, router or middleware may define to take part in the app's life. Implement the ones you need;
 * the app finds them by name.
 *
 * @example
 * ```ts
 * @Injectable()
 * class Database implements OnStartup, OnShutdown, HealthCheck {
 *   constructor(private readonly config: Config) {}
 *   async onStartup() { this.pool = await connect(this.config.string('db.url')); }   // before the port opens
 *   async onShutdown() { await this.pool.end(); }                                     // after requests drain
 *   async healthCheck() { await this.pool.query('select 1'); }                        // /readyz
 * }
 * ```
 */
export interface OnStartup {
  /** Runs once, dependencies first, before the app serves; throwing stops the start. */
  onStartup(): unknown;
}

/** See {@link OnStartup}: runs once, in reverse startup order, after requests in flight finish. */
export interface OnShutdown {
  onShutdown(): unknown;
}

/** See {@link OnStartup}: `/readyz` calls it; throwing or returning `false` makes the app not ready. */
export interface HealthCheck {
  healthCheck(): unknown;
}

type Hooked = Partial<OnStartup & OnShutdown & HealthCheck>;

/** Where a target whose hooks are not its class's own (a plug-in's) keeps the name they go by. */
export const HOOK_OWNER = Symbol('trellis.hookOwner');

/** What logs, errors and readiness checks name a target by: its owner's name (a plug-in's), else its class's. */
export function ownerName(target: unknown): string {
  return (target as { [HOOK_OWNER]?: string })[HOOK_OWNER] ?? (target as object).constructor?.name ?? 'anonymous';
}

/** How logs and errors name a hook: `Database.onStartup()`, `audit-log.onStartup()` for a plug-in's. */
export function hookName(target: unknown, hook: string): string {
  return `${ownerName(target)}.${hook}()`;
}

/**
 * Runs the `onStartup` hooks of `targets` one after the other, in order; resolves to those whose hook ran (so
 * their `onShutdown` can be run should a later one fail). A hook that throws stops it:
 * `TRELLIS_ERR_STARTUP_FAILED` naming it, with the error as `cause`.
 */
export async function runStartupHooks(targets: readonly unknown[], logger: Logger, started: unknown[]): Promise<void> {
  for (const target of targets) {
    const hook = (target as Hooked).onStartup;
    if (typeof hook !== 'function') {
      started.push(target);
      continue;
    }
    const name = hookName(target, 'onStartup');
    const since = performance.now();
    try {
      await hook.call(target);
    } catch (error) {
      throw startupFailure(name, error);
    }
    started.push(target);
    logger.info({ hook: name, ms: elapsed(since) }, 'startup hook finished');
  }
}

/** The error that stops a start: the step that failed and its message, the original as `cause`. */
export function startupFailure(step: string, error: unknown): TrellisError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const failure = new TrellisError('TRELLIS_ERR_STARTUP_FAILED', step, reason);
  (failure as Error & { cause?: unknown }).cause = error;
  return failure;
}

/**
 * Runs the `onShutdown` hooks of `targets` in reverse order, each logged, until `deadline` (a
 * `performance.now()` time): a hook that throws is logged and the next runs; one still running at the
 * deadline is abandoned, and the rest are skipped. Resolves `true` when every hook finished in time.
 */
export async function runShutdownHooks(targets: readonly unknown[], logger: Logger, deadline: number): Promise<boolean> {
  // False once the deadline is met: what is left is skipped.
  let complete = true;
  for (const target of [...targets].reverse()) {
    const hook = (target as Hooked).onShutdown;
    if (typeof hook !== 'function') continue;
    const name = hookName(target, 'onShutdown');
    const left = complete ? deadline - performance.now() : 0;
    if (left <= 0) {
      logger.error({ hook: name }, 'shutdown hook skipped: the grace period is over');
      complete = false;
      continue;
    }
    const since = performance.now();
    const outcome = await withDeadline(Promise.resolve().then(() => hook.call(target)), left);
    if (outcome === 'timeout') {
      complete = false;
      logger.error({ hook: name, ms: elapsed(since) }, 'shutdown hook still running when the grace period ended');
    } else if (outcome instanceof Failure) {
      logger.error({ hook: name, err: outcome.error }, 'shutdown hook failed');
    } else logger.info({ hook: name, ms: elapsed(since) }, 'shutdown hook finished');
  }
  return complete;
}

class Failure {
  constructor(readonly error: unknown) {}
}

/** `work`'s outcome, a {@link Failure}, or `'timeout'` after `ms`. */
export function withDeadline(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, ms, 'timeout')));
  return Promise.race([work.then((value) => value, (error) => new Failure(error)), timeout]).finally(() => clearTimeout(timer));
}

/** Whether `outcome` (of {@link withDeadline}) is a failure or timeout; the error or `'timeout'`, else undefined. */
export function failureOf(outcome: unknown): unknown {
  return outcome === 'timeout' ? 'timeout' : outcome instanceof Failure ? (outcome.error ?? 'failed') : undefined;
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 100) / 100;
}
