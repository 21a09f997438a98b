import { TrellisError } from '../framework-error';

/**
 * `AppOptions.health`: the liveness and readiness endpoints. `true` serves `/healthz` and `/readyz`.
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ health: { path: '/livez', readyPath: '/ready', timeout: 2_000, checkInterval: 5_000 } });
 * ```
 */
export interface HealthOptions {
  /** Liveness: 200 while the process serves. `/healthz` by default. */
  path?: string;
  /** Readiness: 200 once started while every `healthCheck()` passes, else 503. `/readyz` by default. */
  readyPath?: string;
  /** Milliseconds one `healthCheck()` may take before it counts as failing. 5,000 by default. */
  timeout?: number;
  /**
   * Milliseconds `/readyz` reuses the result of the last run of the checks. 1,000 by default; 0 checks again
   * on every request. Either way one run is in flight at a time: concurrent requests share it.
   */
  checkInterval?: number;
  /** List the two endpoints in the OpenAPI document. `false` by default. */
  includeInSchema?: boolean;
}

/** {@link HealthOptions} with defaults applied and paths checked. */
export interface HealthSettings {
  path: string;
  readyPath: string;
  timeout: number;
  checkInterval: number;
  includeInSchema: boolean;
}

const PATH = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/** The settings of `AppOptions.health`, or undefined when it is off (the default). */
export function healthSettings(option: HealthOptions | boolean | undefined): HealthSettings | undefined {
  if (!option) return undefined;
  const given = option === true ? {} : option;
  const settings = {
    path: given.path ?? '/healthz',
    readyPath: given.readyPath ?? '/readyz',
    timeout: given.timeout ?? 5_000,
    checkInterval: given.checkInterval ?? 1_000,
    includeInSchema: given.includeInSchema ?? false,
  };
  for (const path of [settings.path, settings.readyPath]) if (!PATH.test(path)) throw new TrellisError('TRELLIS_ERR_HEALTH_OPTION', 'path', path);
  if (settings.path === settings.readyPath) throw new TrellisError('TRELLIS_ERR_HEALTH_OPTION', 'readyPath', settings.readyPath);
  if (!(Number.isSafeInteger(settings.timeout) && settings.timeout > 0)) throw new TrellisError('TRELLIS_ERR_HEALTH_OPTION', 'timeout', settings.timeout);
  if (!(Number.isSafeInteger(settings.checkInterval) && settings.checkInterval >= 0)) {
    throw new TrellisError('TRELLIS_ERR_HEALTH_OPTION', 'checkInterval', settings.checkInterval);
  }
  return settings;
}
