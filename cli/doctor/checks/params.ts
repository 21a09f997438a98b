import type { RouteInfo } from '../../../framework/index';
import type { Finding, RouteRow } from '../report';

/**
 * `{name}` segments that no argument of the handler binds with `@Path('name')`: the value is matched and
 * thrown away, usually a typo. A handler that takes `@Req()` may read `request.params`, so it is spared.
 */
export function unboundParams(routes: ReadonlyArray<[RouteInfo, RouteRow]>): Finding[] {
  const findings: Finding[] = [];
  for (const [route, row] of routes) {
    if (route.params.some((param) => param.kind === 'request')) continue;
    const bound = new Set(route.params.filter((param) => param.kind === 'path').map((param) => param.name));
    for (const [, name] of route.path.matchAll(/\{([^{}]+)\}/g)) {
      if (bound.has(name)) continue;
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
