import type { Logger } from '../exception-handlers';
import type { Readiness } from '../health/routes';
import { failureOf, hookName, withDeadline } from './hooks';

/**
 * Runs the `healthCheck()` of every target that has one, all at once, each within `timeoutMs`: one that
 * throws, returns `false` or runs out of time is `'down'` (logged with its error, which the response never
 * shows). Checks are named by class.
 */
export async function checkReadiness(targets: readonly unknown[], timeoutMs: number, logger: Logger): Promise<Readiness> {
  const checked = targets.filter((target) => typeof (target as { healthCheck?: unknown }).healthCheck === 'function');
  const outcomes = await Promise.all(
    checked.map((target) => withDeadline(Promise.resolve().then(() => (target as { healthCheck(): unknown }).healthCheck()), timeoutMs)),
  );
  const checks: Readiness['checks'] = {};
  let ready = true;
  outcomes.forEach((outcome, index) => {
    const name = (checked[index] as object).constructor.name;
    const failure = outcome === false ? 'returned false' : failureOf(outcome);
    if (failure === undefined) {
      checks[name] = 'up';
      return;
    }
    ready = false;
    checks[name] = 'down';
    logger.warn({ hook: hookName(checked[index], 'healthCheck'), err: failure === 'timeout' ? `no answer within ${timeoutMs} ms` : failure }, 'health check failed');
  });
  return { ready, checks };
}
