import type { Plugin } from '../plugin/plugin';
import { asyncapiPath } from './asyncapi-link';
import { docsPrefix, type DocsOptions } from './options';
import { docsRouter } from './routes';

/**
 * The documentation pages as a plug-in: the landing page, Swagger UI, ReDoc, `openapi.json` and `openapi.yaml`
 * under `path` (`/docs` by default), out of the OpenAPI document; with API versions, each version's document at
 * `v{version}/openapi.json` (and `.yaml`, and its ReDoc page at `v{version}/redoc`), Swagger UI switching between them. The start is refused when the document could
 * not be built (two DTO classes of one name), rather than a 500 on the first request for it. `AppOptions.docs`
 * registers it for you (unless `false`).
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { docs } from 'trellis/plugins';
 *
 * const app = new BaseRouter({ docs: false }).register(docs({ path: '/api-docs' }));
 * ```
 */
export function docs(options: DocsOptions = {}): Plugin {
  const prefix = docsPrefix(options) as string;
  return {
    name: 'docs',
    register(host) {
      const { title, version, description } = host.app;
      const openapi = (api?: string) => host.app.openapi(api === undefined ? undefined : { version: api });
      // The websockets plug-in serves the gateways' AsyncAPI document next to openapi.json; the pages link it when it does.
      const asyncapi = () => host.app.routes.some((route) => route.method === 'GET' && route.path === asyncapiPath(prefix));
      host.route(docsRouter(prefix, { title, version, description, openapi, versions: () => host.app.apiVersions, asyncapi }));
      // Loaded here, on start: the schema generator is not needed to serve routes.
      host.verify(() => (require('../openapi/schema-names') as typeof import('../openapi/schema-names')).assertSchemaNames(host.app.routes));
    },
  };
}
