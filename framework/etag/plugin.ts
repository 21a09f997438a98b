import { etagMark } from '../decorators/etag';
import { TrellisError } from '../framework-error';
import type { OpenAPIDocument } from '../openapi/types';
import type { Plugin } from '../plugin/plugin';
import type { Request } from '../request';
import type { Response } from '../response';
import type { RouteInfo } from '../routing/route-info';
import { noneMatch, weakETag } from './etag';

/**
 * Which GET routes get ETags: `all` (the default) every one not marked `@ETag(false)`; `false` only those marked
 * `@ETag()`. config.yaml's `etag: true` / `etag: false` say the same.
 *
 * @example
 * ```ts
 * app.register(etag({ all: false })); // only the routes marked @ETag()
 * ```
 */
export interface ETagOptions {
  all?: boolean;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Conditional GETs for JSON: a weak ETag (`W/"..."`, SHA-1 of the bytes already serialized) on the `200` JSON
 * answers of GET (and HEAD) routes, and `304 Not Modified` without a body when `If-None-Match` names it (or is
 * `*`), keeping `Cache-Control`, `Vary` and the other headers. Streams, other statuses and responses that set
 * their own `ETag` (static files) are left alone. The routes' OpenAPI operations gain the `If-None-Match`
 * parameter, the `ETag` header and the `304` response.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { etag } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(etag());            // every GET route
 * const marked = new BaseRouter().register(etag({ all: false })); // routes marked @ETag() only
 * ```
 */
export function etag(options: ETagOptions | boolean = {}): Plugin {
  const all = allOf(options);
  return {
    name: 'etag',
    register(host) {
      const tagged = () => host.app.routes.filter((route) => route.method === 'GET' && (etagMark.of(route) ?? all));
      let enabled: ReadonlySet<string> = new Set();
      host.verify(() => void (enabled = new Set(tagged().map((route) => route.path))));
      host.onResponse((request, response) => {
        const route = request.route;
        if (route === undefined || response.status !== 200 || !enabled.has(route)) return;
        if (request.method === 'GET' || request.method === 'HEAD') tag(request, response);
      });
      host.openapi((document) => describe(document, tagged()));
    },
  };
}

function tag(request: Request, response: Response): void {
  const { body, headers } = response;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
  if (headers.has('etag') || !JSON_TYPE.test(headers.get('content-type') ?? '')) return;
  const value = weakETag(body);
  headers.set('etag', value);
  const condition = request.raw.headers['if-none-match'];
  if (condition === undefined || !noneMatch(condition, value)) return;
  response.status = 304;
  response.body = undefined;
  headers.delete('content-length');
  headers.delete('content-type');
}

function describe(document: OpenAPIDocument, routes: readonly RouteInfo[]): void {
  const header = { description: 'A weak entity tag of the JSON body: send it back in If-None-Match', schema: { type: 'string' } };
  for (const route of routes) {
    const operation = document.paths[route.path]?.get;
    if (!operation) continue;
    const parameters = (operation.parameters ??= []);
    if (!parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-none-match')) {
      parameters.push({ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of representations the client has: a match is answered 304 without a body', schema: { type: 'string' } });
    }
    const ok = operation.responses['200'];
    if (ok) ok.headers = { ...ok.headers, ETag: header };
    operation.responses['304'] ??= { description: 'Not Modified: the representation still has the ETag the client sent', headers: { ETag: header } };
  }
}

function allOf(options: ETagOptions | boolean): boolean {
  if (typeof options === 'boolean') return options;
  if (options !== null && typeof options === 'object' && (options.all === undefined || typeof options.all === 'boolean')) return options.all ?? true;
  throw new TrellisError('TRELLIS_ERR_ETAG_OPTION', JSON.stringify(options) ?? String(options));
}
