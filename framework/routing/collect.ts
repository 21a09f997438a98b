import 'reflect-metadata';
import { scopesOf } from '../decorators/scopes';
import { metadataChain } from '../metadata';
import type { Class } from '../core/types';
import { compileArguments, type ArgumentsReader } from '../pipeline/arguments';
import { basePathOf, middlewareOf, type Controller } from '../router';
import type { MiddlewareLike } from '../middleware';
import { versionsOf } from '../versioning/version';
import { joinPath, pathParams } from './path';
import type { RouteInfo } from './route-info';

export interface RouteRecord extends RouteInfo {
  readArguments: ArgumentsReader;
  takesBody: boolean;
  /** The router instance serving it: given to `includeRouter`, or built by the app when it starts. */
  instance?: Controller;
}

/** How routes and errors name a handler: `TaskRouter.one` (the class included, for an inherited route). */
export function routeLabel(router: Function, handler: string | symbol): string {
  return `${router.name}.${String(handler)}`;
}

/**
 * Reads a router class's declared endpoints (its own and inherited), checks them and compiles argument
 * readers; nothing is built. `instance`, when the app was given one, serves them. A route of several API
 * versions is one record per version; `uriPrefix` (URI versioning: `'v'`) puts `/v{version}` before their paths.
 */
export function collectRoutes(ctor: Class<Controller>, instance?: Controller, uriPrefix?: string): RouteRecord[] {
  const chain = metadataChain(ctor);
  const basePath = basePathOf(ctor);
  const seen = new Set<string>();
  const records: RouteRecord[] = [];
  for (const metadata of chain) {
    for (const definition of metadata.routes) {
      const path = joinPath(basePath, definition.path);
      const key = `${definition.method} ${path} ${String(definition.handler)}`;
      if (seen.has(key)) continue; // overridden in a subclass
      seen.add(key);
      const handlerName = definition.handler;
      const label = routeLabel(ctor, handlerName);
      const params = chain.map((m) => m.params.get(handlerName)).find(Boolean) ?? [];
      const proto = ctor.prototype;
      const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', proto, handlerName) ?? [];
      const returnType: unknown = Reflect.getMetadata('design:returntype', proto, handlerName);
      const { read, takesBody } = compileArguments({ label, path, pathParams: pathParams(path), params, designTypes: paramTypes });
      const record: RouteRecord = {
        method: definition.method,
        path,
        label,
        router: ctor,
        instance,
        handlerName,
        options: definition.options,
        params,
        paramTypes,
        returnType,
        middleware: [...(instance ? middlewareOf(instance) : []), ...declaredMiddleware(chain, handlerName)],
        source: definition.source,
        scopes: scopesOf(chain, handlerName),
        readArguments: read,
        takesBody,
      };
      const versions = versionsOf(record);
      if (!versions) records.push(record);
      else for (const version of versions) records.push(versioned(record, version, uriPrefix));
    }
  }
  return records;
}

// One record per version, each with its own middleware list (the app puts the router's in front of it later).
function versioned(record: RouteRecord, version: string, uriPrefix: string | undefined): RouteRecord {
  const path = uriPrefix === undefined ? record.path : joinPath(`/${uriPrefix}${version}`, record.path);
  return { ...record, path, version, middleware: [...record.middleware] };
}

/**
 * The `@Use` middleware of a route: its classes' (a base router's first), then the handler's (as declared
 * where the method is, nearest class first, like its parameters).
 */
function declaredMiddleware(chain: ReturnType<typeof metadataChain>, handler: string | symbol): MiddlewareLike[] {
  const onClasses = [...chain].reverse().flatMap((metadata) => metadata.middleware);
  return [...onClasses, ...(chain.map((metadata) => metadata.routeMiddleware.get(handler)).find(Boolean) ?? [])];
}
