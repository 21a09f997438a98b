import type { Registry } from 'prom-client';
import { Get } from '../decorators/route';
import type { Class } from '../core/types';
import { Response } from '../response';
import { router, type Controller } from '../router';

/**
 * The metrics page as a router class: `GET path` (and so HEAD) answers `registry.metrics()` in Prometheus'
 * text format, never cached, out of the OpenAPI document.
 */
export function metricsRouter(path: string, registry: Registry): Class<Controller> {
  const headers = { 'content-type': registry.contentType, 'cache-control': 'no-store' };

  class MetricsRouter extends router(path) {
    @Get('/', { includeInSchema: false }) async metrics() {
      return new Response(await registry.metrics(), { headers });
    }
  }
  return MetricsRouter;
}
