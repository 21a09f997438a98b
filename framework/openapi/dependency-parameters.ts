import { routeValues } from '../injection/route-values';
import type { RouteInfo } from '../routing/route-info';
import { parametersOf } from './parameters';
import type { ParameterObject } from './types';

/**
 * The query and header parameters the route's request-scoped dependencies read (`@Header`/`@Query` on their
 * constructors, through every provider they take), documented as the handler's own would be; those the
 * route already lists (the same name and place) are left out.
 */
export function dependencyParametersOf(route: RouteInfo, listed: readonly ParameterObject[]): ParameterObject[] {
  const values = routeValues(route);
  if (!values.length) return [];
  const found: ParameterObject[] = [];
  const key = (p: ParameterObject) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const seen = new Set(listed.map(key));
  for (const owner of new Set(values.map((value) => value.owner))) {
    const params = values.filter((value) => value.owner === owner && (value.param.kind === 'query' || value.param.kind === 'header')).map((value) => value.param);
    const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', owner) ?? [];
    for (const parameter of parametersOf({ ...route, path: '', label: `${owner.name}.constructor`, params, paramTypes }, undefined)) {
      if (seen.has(key(parameter))) continue;
      seen.add(key(parameter));
      found.push(parameter);
    }
  }
  return found;
}
