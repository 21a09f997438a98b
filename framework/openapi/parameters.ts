import type { ParamDefinition } from '../metadata';
import type { RouteInfo } from '../routing/route-info';
import { pathParams } from '../routing/path';
import type { HandlerDoc } from './doc-comments';
import { valueTypeOf } from '../pipeline/value-type';
import { constraintKeywords } from '../pipeline/constraints';
import type { ParameterObject } from './types';
import { isValueClass, valueClassOf } from '../pipeline/value-class';
import { classParameters } from './class-parameters';

/**
 * The path, query and header parameters of a route: every `{name}` of the path (typed by its `@Path`,
 * a string if the handler does not bind it), then queries and headers in declaration order (a `@Query()` or
 * `@Header()` class: each of its properties, in the class's order).
 */
export function parametersOf(route: RouteInfo, doc: HandlerDoc | undefined): ParameterObject[] {
  const byIndex = [...route.params].sort((a, b) => a.index - b.index);
  const parameters: ParameterObject[] = pathParams(route.path).map((name) => {
    const param = byIndex.find((p) => p.kind === 'path' && p.name === name);
    const schema = param ? valueSchema(route, param) : { type: 'string' };
    return withDescription({ name, in: 'path', required: true, schema }, param);
  });
  for (const param of byIndex) {
    if (param.kind !== 'query' && param.kind !== 'header') continue;
    if (isValueClass(param)) {
      parameters.push(...classParameters(valueClassOf(route.label, param, route.paramTypes[param.index])));
      continue;
    }
    const schema = valueSchema(route, param);
    // `default: null` means "optional": an absent value is null, which a query string cannot spell.
    if (param.hasDefault && param.default !== null && param.default !== undefined) schema.default = param.default;
    const name = param.kind === 'header' ? headerName(param.name!, doc) : param.name!;
    parameters.push(withDescription({ name, in: param.kind, required: !param.hasDefault, schema }, param));
  }
  return parameters;
}

/**
 * The schema of a path, query or header value, typed as the request pipeline converts it, with the limits it
 * enforces (`minimum`, `enum`, `pattern`, ...: on the items of an array).
 */
function valueSchema(route: RouteInfo, param: ParamDefinition): Record<string, unknown> {
  const type = valueTypeOf(route.label, param, route.paramTypes[param.index]);
  const keywords = constraintKeywords(param.constraints);
  return Array.isArray(type) ? { type: 'array', items: { type: type[0], ...keywords } } : { type, ...keywords };
}

/** The name as written in `@Header(...)` if the source says, else the canonical `X-Request-Id` form. */
function headerName(lower: string, doc: HandlerDoc | undefined): string {
  return doc?.headerNames.get(lower) ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function withDescription(parameter: ParameterObject, param: ParamDefinition | undefined): ParameterObject {
  if (param?.description) parameter.description = param.description;
  return parameter;
}
