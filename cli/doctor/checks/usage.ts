import type { Class } from 'trellis/inspect';
import { injects, inspectGateway, type InspectedRoute } from 'trellis/inspect';
import type { Discovery } from 'trellis/internal';
import type { Finding } from '../report';
import { declaredAt } from '../routes';

/**
 * Services no router, gateway, middleware or other service takes in its constructor, nor any handler through
 * `@Depends()` (the container only builds what is asked for), and middleware neither config.yaml nor any router or
 * gateway uses.
 */
export function unusedClasses(projectDir: string, discovery: Discovery, globalMiddleware: Class[], routes: readonly InspectedRoute[]): Finding[] {
  const consumers: Class[] = [
    ...discovery.routers.map((r) => r.cls),
    ...(discovery.gateways ?? []).map((g) => g.cls),
    ...discovery.services.map((s) => s.cls),
    ...discovery.middleware.flatMap((m) => m.classes),
  ];
  const findings: Finding[] = [];

  for (const service of discovery.services) {
    if (consumers.some((consumer) => consumer !== service.cls && injects(consumer, service.cls))) continue;
    findings.push({
      severity: 'warning',
      code: 'unused-service',
      message: `${service.cls.name} is injected nowhere: no router, middleware or service takes it in its constructor, and no handler through @Depends()`,
      ...declaredAt(projectDir, service),
    });
  }

  const routeMiddleware = [
    ...routes.flatMap((route) => route.middleware.map((m) => m.class)),
    ...(discovery.gateways ?? []).flatMap((g) => inspectGateway(g.cls)?.guards.map((guard) => guard.class) ?? []),
  ];
  for (const file of discovery.middleware) {
    for (const cls of file.classes) {
      const used = globalMiddleware.includes(cls) || routeMiddleware.some((m) => m !== undefined && (m === cls || m.prototype instanceof cls));
      if (used) continue;
      findings.push({
        severity: 'warning',
        code: 'unused-middleware',
        message: `${cls.name} is used nowhere: list ${file.name} in config.yaml middleware: [...] or put @Use(${cls.name}) above a router or handler`,
        ...declaredAt(projectDir, { cls, file: file.file }),
      });
    }
  }
  return findings;
}
