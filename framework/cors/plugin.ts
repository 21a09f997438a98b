import { ConfigSectionError } from '../config-section';
import { varyWith } from '../core/vary';
import { TrellisError } from '../framework-error';
import { Middleware, type CallNext } from '../middleware';
import type { Plugin } from '../plugin/plugin';
import type { Request } from '../request';
import { SYNC_NEXT } from '../symbols';
import type { Response, ResponseHeaders } from '../response';
import type { CorsOptions } from './options';
import { CorsPolicy, PreflightResponse } from './policy';
import { CorsRoutes } from './routes';
import { corsOptionsOf, CorsSettings } from './settings';

/**
 * Cross-origin requests from browsers (CORS), for every response: routes, docs pages, static files, errors.
 * Preflights (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) are answered `204` before routing and
 * before any middleware (a guard never sees them), for every path that has a route under any method; a path with
 * no route stays a 404. Every response carries `Vary: Origin`; a refused origin gets no `Access-Control-Allow-*`
 * header, and its request is served as usual (the browser keeps the answer from the page). Without options, it
 * reads config.yaml's `cors:` section. `@Cors(...)` changes it for a router or a handler.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { cors } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(cors({ origins: ['http://localhost:5173'], credentials: true }));
 * ```
 */
export function cors(options?: CorsOptions): Plugin {
  // Options given in code are checked here, where they are written.
  if (options) new CorsPolicy(options, 'cors');
  return {
    name: 'cors',
    register(host) {
      const routes = options ? new CorsRoutes(options) : fromConfig(host.settings(CorsSettings));
      host.verify(() => routes.build(host.app.routes));
      host.use(new Preflight(routes));
      host.onResponse((request, response) => {
        if (response instanceof PreflightResponse) return;
        const policy = request.method === 'OPTIONS' && routes.turnedOff.has(request) ? null : routes.of(request);
        if (policy === null) return;
        varyOrigin(response.headers);
        const origin = request.raw.headers.origin;
        if (origin === undefined) return;
        const allowed = policy.allowOrigin(origin);
        if (allowed !== undefined) policy.decorate(response.headers, allowed);
      });
    },
  };
}

// Answers preflights before routing; every other request goes on untouched.
class Preflight extends Middleware {
  // Every other request passes through as it comes: a synchronous GET stays synchronous.
  readonly [SYNC_NEXT] = true;
  readonly #routes: CorsRoutes;

  constructor(routes: CorsRoutes) {
    super();
    this.#routes = routes;
  }

  dispatch(request: Request, next: CallNext): Promise<Response> | Response {
    if (request.method !== 'OPTIONS') return next(request);
    const { origin, 'access-control-request-method': method } = request.raw.headers;
    if (origin === undefined || method === undefined) return next(request);
    const policy = this.#routes.preflight(method, request.path);
    if (policy === null) this.#routes.turnedOff.add(request);
    if (!policy) return next(request);
    return policy.preflight(request, origin);
  }
}

/** Appends `Origin` to `Vary` unless it is named there already (or `*`). */
function varyOrigin(headers: ResponseHeaders): void {
  const vary = varyWith(headers.get('vary'), 'Origin');
  if (vary !== undefined) headers.set('vary', vary);
}

// A section that fits its class but not CORS (`credentials: true` with origins '*') is a problem at the line of the
// setting, as a class-validator rule's would be; the coded error is its cause and named in the message.
function fromConfig(settings: CorsSettings): CorsRoutes {
  try {
    return new CorsRoutes(corsOptionsOf(settings));
  } catch (error) {
    if (!(error instanceof TrellisError)) throw error;
    const key = error.code === 'TRELLIS_ERR_CORS_CREDENTIALS' ? 'credentials' : SETTING[String(error.details.option)] ?? 'origins';
    const message = `cors.${key}: ${error.message} (${error.code})`;
    const problem = new ConfigSectionError('cors', CorsSettings.name, [{ path: `cors.${key}`, keys: ['cors', key], message }]);
    (problem as Error & { cause?: unknown }).cause = error;
    throw problem;
  }
}

const SETTING: Record<string, string> = { origins: 'origins', methods: 'methods', headers: 'headers', exposeHeaders: 'expose_headers', maxAge: 'max_age' };
