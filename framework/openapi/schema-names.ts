import { TrellisError } from '../framework-error';
import { Response } from '../response';
import type { RouteInfo } from '../routing/route-info';
import { OWN_SCHEMAS, reachedClasses } from './schemas';

/**
 * Throws `TRELLIS_ERR_SCHEMA_NAME_CLASH` when two different DTO classes of one name (or a DTO class named like one of
 * the framework's schemas, `HTTPError`...) may be documented by the routes: the document names schemas by class name,
 * and would fail to build. Checked when an app serving its docs starts, so that `/docs/openapi.json` never fails at
 * request time; the classes are those the document may register (bodies, `response`/`responses` classes, return
 * types of a class, what they nest), without building it.
 *
 * @example
 * ```ts
 * assertSchemaNames(app.routes); // throws for `@Body() a: models.Item` beside `@Body() b: legacy.Item`
 * ```
 */
export function assertSchemaNames(routes: readonly RouteInfo[]): void {
  const roots: unknown[] = [];
  for (const route of routes) {
    if (route.options.includeInSchema === false) continue;
    const { options, returnType } = route;
    for (const param of route.params) if (param.kind === 'body') roots.push(param.type ?? route.paramTypes[param.index]);
    if (options.response) roots.push(options.response);
    for (const model of Object.values(options.responses ?? {})) if (typeof model !== 'string') roots.push(model);
    if (!(typeof returnType === 'function' && (returnType === Response || returnType.prototype instanceof Response))) roots.push(returnType);
  }
  const byName = new Map<string, Function>();
  for (const cls of reachedClasses(roots)) {
    if (!cls.name) continue;
    const other = byName.get(cls.name);
    if ((other && other !== cls) || OWN_SCHEMAS.includes(cls.name)) throw new TrellisError('TRELLIS_ERR_SCHEMA_NAME_CLASH', cls.name);
    byName.set(cls.name, cls);
  }
}
