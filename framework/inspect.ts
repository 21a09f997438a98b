/**
 * trellis/inspect: what an app is made of and the rules it follows, for tools (`trellis run`, `doctor`,
 * `test`, editors, your own checks): routes with where their handlers are declared, their middleware and
 * models; where a class or method is declared and where an error happened; the path rules (shape,
 * parameters, which route wins). Reading only: nothing here builds or changes an app.
 *
 * @example
 * ```ts
 * import { inspectApp, pathShape } from 'trellis/inspect';
 *
 * const { routes } = inspectApp(app);
 * for (const route of routes) console.log(`${route.method} ${route.path}  ${route.label}  ${route.source?.file}:${route.source?.line}`);
 * const shapes = routes.map((route) => `${route.method} ${pathShape(route.path)}`);
 * ```
 */
import 'reflect-metadata';
import type { Class } from './metadata';
import { isMiddlewareClass as middlewareClass, type Middleware } from './middleware';

export { inspectApp, handlerOf } from './routing/inspect-routes';
export type { AppInspection, InspectedRoute, InspectedMiddleware } from './routing/inspect-routes';
export { settingsSectionOf } from './settings';
export { declarationOf, importsOf } from './source/declarations';
export { stackLocations } from './source/stack';
export type { SourceLocation } from './metadata';
export { pathParams, pathShape, outranks } from './routing/path';
export { isRouterClass } from './router';
export { injects } from './injection/container';
export { dryStart } from './inspect-start';
export type { DryStart } from './inspect-start';

/**
 * Whether `value` is a `Middleware` subclass: what `addMiddleware` builds with injection, and what project
 * discovery takes from `middleware/`.
 *
 * @example
 * ```ts
 * isMiddlewareClass(Timing); // true: class Timing extends Middleware
 * isMiddlewareClass(new Timing()); // false: an instance
 * ```
 */
export const isMiddlewareClass: (value: unknown) => value is Class<Middleware> = middlewareClass;
