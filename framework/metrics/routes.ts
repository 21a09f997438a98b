import { Get } from '../decorators/route';
import type { Class } from '../core/types';
import { Response } from '../response';
import { router, type Controller } from '../router';

/**
 * The metrics page as a router class: `GET path` (and so HEAD) answers `read()` (Prometheus' text format, of
 * `contentType`), never cached, out of the OpenAPI document.
 */
export function metricsRouter(path: string, contentType: string, read: () => Promise<string>): Class<Controller> {
  const headers = { 'content-type': contentType, 'cache-control': 'no-store' };

  class MetricsRouter extends router(path) {
    @Get('/', { includeInSchema: false }) async metrics() {
      return new Response(await read(), { headers });
    }
  }
  return MetricsRouter;
}
