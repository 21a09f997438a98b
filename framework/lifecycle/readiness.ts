import type { Logger } from '../core/logger';
import type { Readiness } from '../health/readiness';
import { failureOf, hookName, ownerName, withDeadline } from './hooks';

/**
 * Runs the `healthCheck()` of every target that has one, all at once, each within `timeoutMs`: one that
 * throws, returns `false` or runs out of time is `'down'`. Checks are named by class (a plug-in's by the plug-in). Only changes are logged,
 * against `previous` (each check's last state, updated here): a check going down with its error (which the
 * response never shows), and coming back up; a check that keeps failing is not logged again.
 */
export async function checkReadiness(
  targets: readonly unknown[],
  timeoutMs: number,
  logger: Logger,
  previous: Map<string, 'up' | 'down'>,
): Promise<Readiness> {
  const checked = targets.filter((target) => typeof (target as { healthCheck?: unknown }).healthCheck === 'function');
  const outcomes = await Promise.all(
    checked.map((target) => withDeadline(Promise.resolve().then(() => (target as { healthCheck(): unknown }).healthCheck()), timeoutMs)),
  );
  const checks: Readiness['checks'] = {};
  let ready = true;
  outcomes.forEach((outcome, index) => {
    const name = ownerName(checked[index]);
    const hook = hookName(checked[index], 'healthCheck');
    const failure = outcome === false ? 'returned false' : failureOf(outcome);
    const was = previous.get(hook);
    if (failure === undefined) {
      checks[name] = 'up';
      previous.set(hook, 'up');
      if (was === 'down') logger.info({ hook }, 'health check passed again');
      return;
    }
    ready = false;
    checks[name] = 'down';
    previous.set(hook, 'down');
    if (was !== 'down') logger.warn({ hook, err: failure === 'timeout' ? `no answer within ${timeoutMs} ms` : failure }, 'health check failed');
  });
  return { ready, checks };
}
