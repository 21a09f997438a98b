import { HTTP_ERROR } from '../openapi/responses';
import type { OpenAPIDocument, ResponseObject } from '../openapi/types';
import type { RouteInfo } from '../routing/route-info';
import type { RatePolicy } from './policy';

const HEADERS: ResponseObject['headers'] = {
  'Retry-After': { description: 'Seconds until the window ends and requests are counted again', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'The limit: `"name";q=<requests>;w=<seconds>` (draft-ietf-httpapi-ratelimit-headers-10)', schema: { type: 'string' } },
  RateLimit: { description: 'What is left: `"name";r=<remaining>;t=<seconds until the window ends>`', schema: { type: 'string' } },
};

/** Gives every limited route of `document` its 429 (`{ error }` with `Retry-After`, `RateLimit-Policy` and `RateLimit`), unless it documents one itself. */
export function documentLimits(document: OpenAPIDocument, routes: readonly RouteInfo[], policyOf: (route: RouteInfo) => RatePolicy | undefined): void {
  let limited = false;
  for (const route of routes) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    const policy = operation && policyOf(route);
    if (!policy) continue;
    limited = true;
    const responses = (operation.responses ??= {});
    responses['429'] ??= {
      description: `Too Many Requests: more than ${policy.limit} in ${Math.ceil(policy.windowMs / 1000)} s (${policy.name})`,
      headers: HEADERS,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    };
  }
  if (!limited) return;
  const components = (document.components ??= {});
  (components.schemas ??= {}).HTTPError ??= HTTP_ERROR as never;
}
