import type { Plugin } from '../plugin/plugin';
import { healthRouter } from './routes';
import { healthSettings, type HealthOptions } from './settings';

/**
 * `/healthz` (liveness) and `/readyz` (readiness: 503 while starting, draining after SIGTERM, or while a service's
 * `healthCheck()` or a plug-in's `host.healthCheck` fails) as a plug-in. Both answer before the app has started,
 * out of the OpenAPI document unless `includeInSchema`. `AppOptions.health` registers it for you.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { health } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(health({ readyPath: '/ready', checkInterval: 5_000 }));
 * ```
 */
export function health(options: HealthOptions = {}): Plugin {
  const settings = healthSettings(options)!;
  return {
    name: 'health',
    register(host) {
      host.route(healthRouter(settings, host.app), { beforeStart: true });
    },
  };
}
