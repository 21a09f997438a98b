import type { RouteInfo } from '../routing/route-info';

/** The docs routers `docsRouter` made, with their prefix. */
const PREFIXES = new WeakMap<Function, string>();

/** The AsyncAPI document's name under the docs prefix. */
export const ASYNCAPI_FILE = 'asyncapi.json';

/**
 * Where an app's AsyncAPI document (its WebSocket gateways) is served, next to `openapi.json`: `{prefix}/asyncapi.json`.
 * The docs pages link it when the app has that route.
 */
export function asyncapiPath(prefix: string): string {
  return `${prefix}/${ASYNCAPI_FILE}`;
}

/** @internal Records the prefix of a docs router class, for {@link docsPrefixOf}. */
export function recordDocsRouter(cls: Function, prefix: string): void {
  PREFIXES.set(cls, prefix);
}

/** The prefix of the docs pages among `routes` (`/docs`, `''` at the root), or undefined when the app serves none. */
export function docsPrefixOf(routes: readonly RouteInfo[]): string | undefined {
  for (const route of routes) {
    const prefix = PREFIXES.get(route.router);
    if (prefix !== undefined) return prefix;
  }
  return undefined;
}
