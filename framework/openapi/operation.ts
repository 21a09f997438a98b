import type { RouteInfo } from '../routing/route-info';
import type { MethodTypes } from '../source/types/table';
import type { HandlerDoc } from './doc-comments';
import type { ExceptionStatus } from './error-statuses';
import { parametersOf } from './parameters';
import { dependencyParametersOf } from './dependency-parameters';
import { requestBodyOf } from './request-body';
import { responsesOf } from './responses';
import type { SchemaRegistry } from './schemas';
import type { OperationObject } from './types';

// Values the request pipeline validates (a 422 when wrong); an absent upload is `undefined`, not an error.
const INPUT_KINDS = new Set(['path', 'query', 'header', 'body']);

/** What the operation of a route is built from, besides the route. */
export interface OperationSources {
  registry: SchemaRegistry;
  doc: HandlerDoc | undefined;
  /** What the handler's TypeScript source says (its entry of the app's TypeTable). */
  types?: MethodTypes;
  exceptionStatus?: ExceptionStatus;
}

/**
 * The operation of one route. Summary and description come from the decorator options, else from the
 * handler's JSDoc (first line, then the rest), else the summary is the handler name in words.
 */
export function operationOf(route: RouteInfo, operationId: string, tag: string, sources: OperationSources): OperationObject {
  const { registry, doc, types, exceptionStatus } = sources;
  const { options } = route;
  const description = options.description ?? doc?.description;
  const deprecated = options.deprecated ?? doc?.deprecated;
  const own = parametersOf(route, doc);
  const fromDependencies = dependencyParametersOf(route, own);
  const parameters = [...own, ...fromDependencies];
  const requestBody = requestBodyOf(route, registry);
  const takesInput = route.params.some((p) => INPUT_KINDS.has(p.kind)) || fromDependencies.length > 0;
  return {
    operationId,
    summary: options.summary ?? doc?.summary ?? words(String(route.handlerName)),
    ...(description ? { description } : {}),
    tags: options.tags ?? [tag],
    ...(deprecated ? { deprecated: true } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(route, { registry, takesInput, types, exceptionStatus }),
  };
}

/** `listTasks` -> `List Tasks`, `get_one` -> `Get One`. */
function words(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .replace(/(^|\s)([a-z])/g, (_, space: string, c: string) => space + c.toUpperCase());
}
