import type { InspectedRoute } from 'trellis/inspect';
import type { Finding, RouteRow } from '../report';

/**
 * `{name}` segments that no argument of the handler binds with `@Path('name')`: the value is matched and
 * thrown away, usually a typo. A handler that takes `@Req()` may read `request.params`, so it is spared.
 */
export function unboundParams(routes: ReadonlyArray<[InspectedRoute, RouteRow]>): Finding[] {
  const findings: Finding[] = [];
  for (const [route, row] of routes) {
    if (route.takesRequest) continue;
    for (const name of route.pathParams) {
      if (route.boundParams.includes(name)) continue;
      findings.push({
        severity: 'error',
        code: 'unbound-param',
        message: `${route.method} ${route.path}: {${name}} is bound by no argument of ${route.label} (add @Path('${name}'))`,
        file: row.file,
        line: row.line,
      });
    }
  }
  return findings;
}
