import type { DocCommentTable, DocumentInfo, ExceptionStatus, OpenAPIDocument } from './openapi';
import type { RouteInfo } from './routing/route-info';
import { readRouteTypes } from './source/types/app-types';
import type { TypeTable } from './source/types/table';

/**
 * What an app knows of its routes beyond their metadata: the types their TypeScript sources give (given, read once
 * when the app freezes, or none), and the OpenAPI document built from both, cached until a route is added or the
 * routers' own middleware becomes known.
 */
export class AppDocument {
  #openapi: OpenAPIDocument | undefined;
  readonly #docComments: DocCommentTable | undefined;
  /** Given, read when the app froze, or none (`false`). */
  #sourceTypes: TypeTable | false | undefined;

  constructor(docComments: DocCommentTable | undefined, sourceTypes: TypeTable | false | undefined) {
    this.#docComments = docComments;
    this.#sourceTypes = sourceTypes;
  }

  /** Drops the cached document: the routes or their middleware changed. */
  invalidate(): void {
    this.#openapi = undefined;
  }

  /** Reads the routes' source types once, unless given. */
  freeze(routes: readonly RouteInfo[]): void {
    if (this.#sourceTypes === undefined) this.#sourceTypes = readRouteTypes(routes) ?? false;
  }

  // Before the app froze (`openapi()` while setting up), read from the routes so far without keeping them
  // (readRouteTypes caches by file content).
  types(routes: readonly RouteInfo[]): TypeTable | undefined {
    if (this.#sourceTypes === false) return undefined;
    return this.#sourceTypes ?? readRouteTypes(routes);
  }

  /** The document, built on first call and cached; `contribute` (the plug-ins') changes each new one. */
  get(info: DocumentInfo, routes: readonly RouteInfo[], exceptionStatus: ExceptionStatus, contribute: (document: OpenAPIDocument) => OpenAPIDocument): OpenAPIDocument {
    if (this.#openapi) return this.#openapi;
    // Loaded on first use: the schema generator is not needed to serve routes.
    const { buildOpenAPI } = require('./openapi') as typeof import('./openapi');
    return (this.#openapi = contribute(buildOpenAPI(info, routes, this.#docComments, this.types(routes), exceptionStatus)));
  }
}
