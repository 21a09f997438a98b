import 'reflect-metadata';
import { join } from 'node:path';
import type { Class, RouteInfo } from '../../../framework/index';
import { classLine, type Discovery, type Found } from '../../../runtime';
import type { Finding } from '../report';

const paramTypes = (cls: Class): unknown[] => Reflect.getMetadata('design:paramtypes', cls) ?? [];

/**
 * Services no router, middleware or other service takes in its constructor (the container only builds
 * what is asked for), and middleware neither config.yaml nor any router uses.
 */
export function unusedClasses(projectDir: string, discovery: Discovery, globalMiddleware: Class[], routes: readonly RouteInfo[]): Finding[] {
  const consumers: Class[] = [
    ...discovery.routers.map((r) => r.cls),
    ...discovery.services.map((s) => s.cls),
    ...discovery.middleware.flatMap((m) => m.classes),
  ];
  const findings: Finding[] = [];
  const at = (found: Found) => ({ file: found.file, line: classLine(join(projectDir, found.file), found.cls.name) });

  for (const service of discovery.services) {
    const wanted = consumers.some(
      (consumer) =>
        consumer !== service.cls &&
        paramTypes(consumer).some((type) => type === service.cls || (typeof type === 'function' && service.cls.prototype instanceof type)),
    );
    if (wanted) continue;
    findings.push({
      severity: 'warning',
      code: 'unused-service',
      message: `${service.cls.name} is injected nowhere: no router, middleware or service takes it in its constructor`,
      ...at(service),
    });
  }

  const routeMiddleware = new Set(routes.flatMap((route) => route.middleware));
  for (const file of discovery.middleware) {
    for (const cls of file.classes) {
      const used =
        globalMiddleware.includes(cls) || [...routeMiddleware].some((m) => m === cls || (typeof m === 'object' && m instanceof cls));
      if (used) continue;
      findings.push({
        severity: 'warning',
        code: 'unused-middleware',
        message: `${cls.name} is used nowhere: list ${file.name} in config.yaml middleware: [...] or add it to a router with this.addMiddleware(${cls.name})`,
        ...at({ cls, file: file.file }),
      });
    }
  }
  return findings;
}
