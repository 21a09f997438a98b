import type { MiddlewareLike } from '../middleware';
import type { RouteInfo } from '../routing/route-info';
import { methodTypes, type TypeTable } from '../source/types/table';
import { DocComments } from './doc-comments';
import type { DocCommentTable } from './doc-table';
import type { ExceptionStatus } from './error-statuses';
import { operationOf } from './operation';
import { SchemaRegistry } from './schemas';
import { SecuritySchemes, secured } from './security';
import type { OpenAPIDocument } from './types';

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
  /** The app-wide middleware (`app.addMiddleware`): the security schemes they declare guard every route. */
  middleware?: readonly MiddlewareLike[];
}

/**
 * Builds the OpenAPI 3.1 document of an app from its routes: one operation per route, one tag per
 * router class (described by the class's JSDoc), and only the schemas those operations use. The JSDoc is
 * read from the routes' source files, or from `docComments` when given (a build's precomputed table).
 * `sourceTypes` is what the handlers' sources say (see {@link TypeTable}): return types become success
 * schemas (its named types components), and the statuses their bodies answer are documented;
 * `exceptionStatus` tells the status the app's exception handlers answer for the error classes they throw.
 *
 * @example
 * ```ts
 * const document = buildOpenAPI({ title: 'Tasks API', version: '1.0.0' }, routes, undefined, sourceTypes);
 * ```
 */
export function buildOpenAPI(
  info: DocumentInfo,
  routes: readonly RouteInfo[],
  docComments?: DocCommentTable,
  sourceTypes?: TypeTable,
  exceptionStatus?: ExceptionStatus,
): OpenAPIDocument {
  const registry = new SchemaRegistry(sourceTypes?.schemas);
  const security = new SecuritySchemes();
  const comments = new DocComments(docComments);
  const tags = new Map<string, string | undefined>();
  const operationIds = new Set<string>();
  const paths: OpenAPIDocument['paths'] = {};

  for (const route of routes) {
    if (route.options.includeInSchema === false) continue;
    const tag = tagName(route.router.name);
    const types = methodTypes(sourceTypes, route);
    const sources = { registry, doc: comments.handler(route), types, exceptionStatus };
    const requirements = security.requirementsOf([...(info.middleware ?? []), ...route.middleware], route.scopes);
    const operation = secured(operationOf(route, uniqueId(route, operationIds), tag, sources), requirements, registry);
    for (const name of operation.tags) if (!tags.has(name)) tags.set(name, name === tag ? comments.router(route) : undefined);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const schemas = registry.schemas;
  const securitySchemes = security.components;
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    // The app at the root; the docs router serves the mount path instead when the app is mounted in Express.
    servers: [{ url: '/' }],
    // Operations without their own `security` are open (said explicitly, as Redocly's `security-defined` asks).
    security: [],
    ...(tags.size ? { tags: [...tags].map(([name, description]) => (description ? { name, description } : { name })) } : {}),
    paths,
    ...(schemas || securitySchemes ? { components: { ...(schemas ? { schemas } : {}), ...(securitySchemes ? { securitySchemes } : {}) } } : {}),
  };
}

/** `TaskRouter` -> `Task`; a class whose name is only `Router` keeps it. */
function tagName(className: string): string {
  return className.replace(/(.)Router$/, '$1') || 'default';
}

/** `TaskRouter_list`; a handler bound to several routes gets the method and, if needed, a number. */
function uniqueId(route: RouteInfo, taken: Set<string>): string {
  const base = `${route.router.name}_${String(route.handlerName)}`.replace(/[^A-Za-z0-9_]/g, '_');
  let id = base;
  if (taken.has(id)) id = `${base}_${route.method.toLowerCase()}`;
  for (let n = 2; taken.has(id); n++) id = `${base}_${route.method.toLowerCase()}_${n}`;
  taken.add(id);
  return id;
}
