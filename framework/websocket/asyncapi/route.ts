import type { Class } from '../../core/types';
import { Req } from '../../decorators/parameter';
import { Get } from '../../decorators/route';
import { ASYNCAPI_FILE, docsPrefixOf } from '../../docs/asyncapi-link';
import type { MiddlewareLike } from '../../middleware';
import type { PluginHost } from '../../plugin/plugin';
import { Request } from '../../request';
import { fixedBody, fixedResponse, type FixedBody } from '../../responses/fixed';
import { router, type Controller } from '../../router';
import type { AsyncAPIDocument } from './types';

const HIDDEN = { includeInSchema: false } as const;

/** Options of {@link serveAsyncAPI}. */
export interface ServeAsyncAPIOptions {
  /** The app-wide middleware that runs on upgrades, read when the document is built: their schemes guard every operation. */
  middleware?: () => readonly MiddlewareLike[];
}

/**
 * Serves the AsyncAPI document of `gateways` (see `buildAsyncAPI`) at `{docs}/asyncapi.json`, next to the docs
 * pages' `openapi.json`, which then link it: what the `websockets` plug-in calls with its gateways. Nothing when
 * there is no gateway, or no docs pages (`docs: false`, or a docs plug-in registered after this one). The
 * document is built on its first request (reading the handlers' return types from their sources) and kept.
 *
 * @example
 * ```ts
 * const plugin: Plugin = { name: 'websockets', register: (host) => serveAsyncAPI(host, [TaskFeed]) };
 * ```
 */
export function serveAsyncAPI(host: PluginHost, gateways: readonly Class[], options: ServeAsyncAPIOptions = {}): void {
  const prefix = docsPrefixOf(host.app.routes);
  if (!gateways.length || prefix === undefined) return;
  const { title, version, description } = host.app;
  host.route(
    asyncapiRouter(prefix, () => {
      // Loaded on first use: the schema generator is not needed to serve the gateways.
      const { buildAsyncAPI } = require('./document') as typeof import('./document');
      return buildAsyncAPI({ title, version, description, middleware: options.middleware?.() }, gateways);
    }),
  );
}

/** A router of one route, `GET {prefix}/asyncapi.json`, left out of the OpenAPI document, answering `document()` as JSON (with an ETag). */
export function asyncapiRouter(prefix: string, document: () => AsyncAPIDocument): Class<Controller> {
  let body: FixedBody | undefined;
  class AsyncAPIRouter extends router(prefix || '/') {
    @Get(`/${ASYNCAPI_FILE}`, HIDDEN) asyncapi(@Req() request: Request) {
      body ??= fixedBody(JSON.stringify(document()), 'application/json; charset=utf-8');
      return fixedResponse(request, body);
    }
  }
  return AsyncAPIRouter;
}
