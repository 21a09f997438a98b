import type { RequestValue } from './request-values';

// Per route object (never global state): the request values its `@Depends()` providers read, directly or through
// other request-scoped providers. The app records them from its container; the OpenAPI document reads them.
const byRoute = new WeakMap<object, readonly RequestValue[]>();

/** Records what the providers behind `route`'s `@Depends()` parameters read from the request. */
export function recordRouteValues(route: object, values: readonly RequestValue[]): void {
  if (values.length) byRoute.set(route, values);
  else byRoute.delete(route);
}

/** What the providers behind `route`'s `@Depends()` parameters read from the request (none when unrecorded). */
export function routeValues(route: object): readonly RequestValue[] {
  return byRoute.get(route) ?? [];
}
