import type { RouteInfo } from '../routing/collect';
import type { TypeTable } from '../source/types/table';
import { DocComments } from './doc-comments';
import type { DocCommentTable } from './doc-table';
import { operationOf } from './operation';
import { SchemaRegistry } from './schemas';
import type { OpenAPIDocument } from './types';

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

/**
 * Builds the OpenAPI 3.1 document of an app from its routes: one operation per route, one tag per
 * router class (described by the class's JSDoc), and only the schemas those operations use. The JSDoc is
 * read from the routes' source files, or from `docComments` when given (a build's precomputed table).
 * `sourceTypes` is what the handlers' sources say of their return types and statuses (see {@link TypeTable}).
 */
export function buildOpenAPI(info: DocumentInfo, routes: readonly RouteInfo[], docComments?: DocCommentTable, sourceTypes?: TypeTable): OpenAPIDocument {
  const registry = new SchemaRegistry();
  const comments = new DocComments(docComments);
  const tags = new Map<string, string | undefined>();
  const operationIds = new Set<string>();
  const paths: OpenAPIDocument['paths'] = {};

  for (const route of routes) {
    if (route.options.includeInSchema === false) continue;
    const tag = tagName(route.router.name);
    const operation = operationOf(route, uniqueId(route, operationIds), tag, registry, comments.handler(route));
    for (const name of operation.tags) if (!tags.has(name)) tags.set(name, name === tag ? comments.router(route) : undefined);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const schemas = registry.schemas;
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    ...(tags.size ? { tags: [...tags].map(([name, description]) => (description ? { name, description } : { name })) } : {}),
    paths,
    ...(schemas ? { components: { schemas } } : {}),
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
