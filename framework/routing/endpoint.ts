import type { Class, HttpMethod } from '../core/types';
import type { RouteOptions } from '../metadata';
import type { MiddlewareLike } from '../middleware';
import type { Request } from '../request';
import type { Response } from '../response';
import type { Controller } from '../router';
import type { RouteRecord } from './collect';
import { routeLabel } from './collect';
import { pathParams } from './path';

/**
 * A route a plug-in adds as a function rather than a router class (as Fastify's `route({ method, url, handler })`):
 * what a WebSocket gateway is to the app, one `GET` route whose handler takes the upgrade. Its middleware and
 * scopes run around it as a router's `@Use` and `@Scopes` do, and the marks read per route (`@RateLimit`, `@Cors`)
 * are read from `owner`.
 *
 * @example
 * ```ts
 * host.route({ method: 'GET', path: '/ws/tasks', owner: TaskFeed, name: 'upgrade', handler: (request) => accept(request), upgrade: true });
 * ```
 */
export interface EndpointRoute {
  method: HttpMethod;
  /** The full path, in `{name}` form. */
  path: string;
  /** The class the route belongs to: it names the route (`TaskFeed.upgrade`), and route marks are read from it. */
  owner: Class;
  /** The route's name after its class's. */
  name: string;
  /** Answers the request; never called for a request its middleware answered. */
  handler: (request: Request) => Response | Promise<Response>;
  /** Its own middleware (guards), in order. */
  middleware?: readonly MiddlewareLike[];
  /** The scopes it needs, checked by a scope-aware guard among its middleware or the app's. */
  scopes?: readonly string[];
  /** Takes upgrade requests (see `RouteInfo.upgrade`). */
  upgrade?: boolean;
  /** A route of the user's (one of their classes), not the framework's: counted as theirs (doctor, the global rate limit). */
  userRoute?: boolean;
  options?: RouteOptions;
}

/** The record of an endpoint route: its handler takes the request and is served by a one-method instance. */
export function endpointRecord(endpoint: EndpointRoute): RouteRecord {
  const { owner, name, handler } = endpoint;
  pathParams(endpoint.path);
  const record: RouteRecord = {
    method: endpoint.method,
    path: endpoint.path,
    label: routeLabel(owner, name),
    router: owner as Class<Controller>,
    instance: { [name]: handler } as unknown as Controller,
    handlerName: name,
    options: { includeInSchema: false, shapeResponse: false, ...endpoint.options },
    params: [],
    paramTypes: [],
    returnType: undefined,
    middleware: [...(endpoint.middleware ?? [])],
    scopes: endpoint.scopes?.length ? Object.freeze([...endpoint.scopes]) : undefined,
    readArguments: (request) => [request],
    takesBody: false,
  };
  if (endpoint.upgrade) record.upgrade = true;
  if (!endpoint.userRoute) record.builtIn = true;
  return record;
}
