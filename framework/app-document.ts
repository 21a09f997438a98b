import type { DocCommentTable, DocumentInfo, ExceptionStatus, OpenAPIDocument } from './openapi';
import type { RouteInfo } from './routing/route-info';
import { readRouteTypes } from './source/types/app-types';
import type { TypeTable } from './source/types/table';
import type { DocumentPlan } from './versioning/document';

/**
 * What an app knows of its routes beyond their metadata: the types their TypeScript sources give (given, read once
 * when the app freezes, or none), and the OpenAPI document built from both, cached until a route is added or the
 * routers' own middleware becomes known.
 */
export class AppDocument {
  /** By version (`''`: the default document). */
  readonly #openapi = new Map<string, OpenAPIDocument>();
  readonly #docComments: DocCommentTable | undefined;
  /** Given, read when the app froze, or none (`false`). */
  #sourceTypes: TypeTable | false | undefined;

  constructor(docComments: DocCommentTable | undefined, sourceTypes: TypeTable | false | undefined) {
    this.#docComments = docComments;
    this.#sourceTypes = sourceTypes;
  }

  /** Drops the cached document: the routes or their middleware changed. */
  invalidate(): void {
    this.#openapi.clear();
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

  /**
   * The document of `plan` (the routes of one API version, or all), built on first call and cached; `plan.finish`
   * (the version header), then `contribute` (the plug-ins') change each new one.
   */
  get(info: DocumentInfo, plan: DocumentPlan, exceptionStatus: ExceptionStatus, contribute: (document: OpenAPIDocument) => OpenAPIDocument): OpenAPIDocument {
    const key = plan.version ?? '';
    const cached = this.#openapi.get(key);
    if (cached) return cached;
    // Loaded on first use: the schema generator is not needed to serve routes.
    const { buildOpenAPI } = require('./openapi') as typeof import('./openapi');
    const { routes } = plan;
    const document = contribute(plan.finish(buildOpenAPI(info, routes, this.#docComments, this.types(routes), exceptionStatus)));
    this.#openapi.set(key, document);
    return document;
  }
}
