import { Get } from '../decorators/route';
import { JSONResponse, type Response } from '../response';
import { errorResponse } from '../error-envelope';
import { router, type Controller } from '../router';
import type { ReadinessSource } from './readiness';
import { ReadinessCache } from './readiness-cache';
import type { HealthSettings } from './settings';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `/healthz` (alive: 200 whenever the process answers) and `/readyz` (200 once the app has started and while
 * every service's `healthCheck()` passes; 503 while it starts, once it drains after SIGTERM, and while a check
 * fails) as a router instance: it needs nothing injected, so it answers before the app has started. The checks
 * run one at a time, their result reused for `settings.checkInterval` ms ({@link ReadinessCache}).
 */
export function healthRouter(settings: HealthSettings, source: ReadinessSource): Controller {
  const options = { includeInSchema: settings.includeInSchema, tags: ['health'] };
  const readiness = new ReadinessCache(() => source.readiness(settings.timeout), settings.checkInterval);

  class HealthRouter extends router('') {
    // Declared JSONResponse, not Response: decorator metadata would name the global Response (the type import is
    // erased), and reading that global loads Node's fetch implementation (undici, about 40 ms of a start).
    /** Liveness: the process is up and answering. */
    @Get(settings.path, { ...options, summary: 'Liveness' }) live(): JSONResponse {
      return new JSONResponse({ status: 'ok' }, { headers: NO_STORE });
    }

    /** Readiness: started, not shutting down, and every health check passes. */
    @Get(settings.readyPath, { ...options, summary: 'Readiness', responses: { 503: 'Not ready' } }) async ready(): Promise<Response> {
      const { state } = source;
      if (state !== 'ready') return notReady(state, {});
      const { ready, checks } = await readiness.get();
      // The state may have changed while the checks ran (SIGTERM).
      if (source.state !== 'ready') return notReady(source.state, checks);
      return ready ? new JSONResponse({ status: 'ready', checks }, { headers: NO_STORE }) : notReady('failing', checks);
    }
  }
  return new HealthRouter();
}

function notReady(status: string, checks: Record<string, string>): Response {
  return errorResponse(503, 'Service Unavailable', { ...NO_STORE, 'retry-after': '1' }, { status, checks });
}
