/**
 * trellis/inspect: what an app is made of and the rules it follows, for tools (`trellis run`, `doctor`,
 * `build`, `test`, editors, your own checks): routes with where their handlers are declared, their middleware and
 * models; where a class or method is declared and where an error happened; the path rules (shape,
 * parameters, which route wins); the types and doc comments read from the sources, the OpenAPI document's type,
 * and the coded errors (`TrellisError`) a misused app throws. Reading only: nothing here builds or changes an app.
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
import { appInternals, type BaseRouter } from './app';
import { unguardedScopes } from './routing/guarded-scopes';
import { TrellisError } from './framework-error';
import type { Class } from './core/types';
import { isMiddlewareClass as middlewareClass, type Middleware } from './middleware';
import type { ReadOptions } from './source/types/read';
import type { TypeTable } from './source/types/table';

export { inspectApp, handlerOf } from './routing/inspect-routes';
export type { AppInspection, InspectedRoute, InspectedMiddleware } from './routing/inspect-routes';
export { settingsSectionOf } from './settings';
export { declarationOf, importsOf, undecoratedProperties } from './source/declarations';
export { stackLocations } from './source/stack';
export type { ReadOptions } from './source/types/read';
export type { TypeTable } from './source/types/table';
export { parseDocComments } from './openapi/doc-comments';
export type { OpenAPIDocument, DocCommentTable, ClassDocs } from './openapi';
export type { Class, SourceLocation } from './core/types';
export { pathParams, pathShape, outranks } from './routing/path';
export { isRouterClass } from './router';
export { inspectGateway } from './websocket/inspect';
export type { InspectedGateway } from './websocket/inspect';
export { isPlugin } from './plugin/plugin';
export type { Controller } from './router';
export { injects } from './injection/container';
export { hasValidationRules } from './pipeline/validate';
export { dryStart } from './inspect-start';
export { validationFallbacks } from './pipeline/compiled/fallbacks';
export type { ValidationFallback } from './pipeline/compiled/fallbacks';
export type { DryStart } from './inspect-start';
export { TrellisError } from './framework-error';
export type { ErrorCode } from './framework-error';

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

/**
 * The return types and statuses of every decorated method of the classes in `files`, read with one TypeScript
 * program (`typescript` and `ts-json-schema-generator` must be installed: undefined otherwise), keyed by the files
 * as given (a compiled `.js` is read from the `.ts` beside it or named by its source map). Cached in this process
 * and on disk by file content. What an app reads when it starts, and `trellis build` precomputes.
 *
 * @example
 * ```ts
 * const table = readSourceTypes(['/home/me/demo/routers/tasks.ts']);
 * table?.files['/home/me/demo/routers/tasks.ts']['TaskRouter.list'].returns; // { kind: 'json', schema: { type: 'array', items: { $ref: '#/components/schemas/Task' } } }
 * ```
 */
export function readSourceTypes(files: readonly string[], options?: ReadOptions): TypeTable | undefined {
  // Loaded on use: a built app loads this entry point and never reads a source.
  return (require('./source/types/read') as typeof import('./source/types/read')).readSourceTypes(files, options);
}

/**
 * What `start()` would refuse of how `app`'s routes declare their responses, without starting it: a declared shape
 * whose properties cannot be known (`TRELLIS_ERR_RESPONSE_UNKNOWN`) or compiled (`TRELLIS_ERR_RESPONSE_SCHEMA`),
 * one error per route at most, in route order. Compiles (and caches) the serializers as the start would.
 *
 * @example
 * ```ts
 * for (const problem of responseShapeProblems(app)) console.log(problem.code, problem.details.handler);
 * ```
 */
export function responseShapeProblems(app: BaseRouter): TrellisError[] {
  const { ResponseShaper } = require('./pipeline/response-shape') as typeof import('./pipeline/response-shape');
  const internals = appInternals(app);
  const shaper = new ResponseShaper(internals.sourceTypes());
  const problems: TrellisError[] = [];
  for (const route of internals.routes()) {
    try {
      shaper.shapesOf(route);
    } catch (error) {
      if (!(error instanceof TrellisError)) throw error;
      problems.push(error);
    }
  }
  return problems;
}

/**
 * The routes with `@Scopes` that no scope-aware guard covers (`TRELLIS_ERR_SCOPES_UNGUARDED`, as the start would
 * throw the first), read from the classes without building them: routers built by {@link dryStart} add the
 * middleware their constructors give.
 *
 * @example
 * ```ts
 * for (const problem of scopeProblems(app)) console.log(problem.message);
 * ```
 */
export function scopeProblems(app: BaseRouter): TrellisError[] {
  const internals = appInternals(app);
  return unguardedScopes(internals.routes(), internals.middleware());
}
