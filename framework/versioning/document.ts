import { TrellisError } from '../framework-error';
import type { OpenAPIDocument } from '../openapi/types';
import type { RouteInfo } from '../routing/route-info';
import type { VersioningSettings } from './options';

/**
 * `app.openapi(options)`: which version's document.
 *
 * @example
 * ```ts
 * const v1 = app.openapi({ version: '1' });   // the v1 routes and the version-neutral ones
 * ```
 */
export interface OpenAPIOptions {
  /** One API version's document: its routes and the version-neutral ones. Without it, the app's default document. */
  version?: string;
}

/** The routes of one document and what to add to it, for {@link OpenAPIOptions}. */
export interface DocumentPlan {
  /** The version documented; undefined for every route (an app without versions, or URI versioning's default). */
  version: string | undefined;
  routes: readonly RouteInfo[];
  /** Adds the version header to the versioned operations (header versioning). */
  finish(document: OpenAPIDocument): OpenAPIDocument;
}

/**
 * What `app.openapi(options)` documents: `version`'s routes and the version-neutral ones; by default every route
 * under URI versioning (each version has its own paths), the default version's (else the latest's) under header
 * versioning (where versions share paths). A version no route declares is `TRELLIS_ERR_VERSIONING`.
 */
export function documentPlan(settings: VersioningSettings, versions: readonly string[], routes: readonly RouteInfo[], options: OpenAPIOptions = {}): DocumentPlan {
  const asked = options.version;
  if (asked !== undefined && !versions.includes(asked)) {
    const known = versions.length ? versions.join(', ') : 'none';
    throw new TrellisError('TRELLIS_ERR_VERSIONING', 'version', `no route declares version ${JSON.stringify(asked)} (versions: ${known})`);
  }
  const fallback = settings.defaultVersion === 'latest' ? versions[versions.length - 1] : settings.defaultVersion;
  const version = asked ?? (settings.type === 'header' && versions.length ? (fallback ?? versions[versions.length - 1]) : undefined);
  if (version === undefined) return { version, routes, finish: (document) => document };
  const chosen = routes.filter((route) => route.version === undefined || route.version === version);
  const finish = (document: OpenAPIDocument) => (settings.type === 'header' ? withVersionHeader(document, chosen, settings.header, version, version === fallback) : document);
  return { version, routes: chosen, finish };
}

// Each versioned operation takes the header, with its one value; required unless it is the default version.
function withVersionHeader(document: OpenAPIDocument, routes: readonly RouteInfo[], header: string, version: string, optional: boolean): OpenAPIDocument {
  const parameter = {
    name: header,
    in: 'header' as const,
    required: !optional,
    description: optional ? `The API version (${version} when absent)` : 'The API version',
    schema: { type: 'string', enum: [version] },
  };
  for (const route of routes) {
    const operation = route.version === undefined ? undefined : document.paths[route.path]?.[route.method.toLowerCase()];
    if (operation) operation.parameters = [parameter, ...(operation.parameters ?? [])];
  }
  return document;
}
