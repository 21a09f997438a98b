import { createLogger, type BaseRouter, type Class, type Middleware } from '../../framework/index';
import type { InspectedRoute } from '../../framework/inspect';
import { CONFIG_FILE, configProblems, configValueProblems, createApp, discover, globalMiddleware, mountAssets, openProject, type Discovery, type Project } from '../../runtime';
import { duplicateRoutes } from './checks/duplicates';
import { missingFiles } from './checks/files';
import { unvalidatedModels } from './checks/models';
import { checkOpenApi } from './checks/openapi';
import { unboundParams } from './checks/params';
import { shadowedRoutes } from './checks/shadowing';
import { unusedClasses } from './checks/usage';
import { errorAt, type DoctorReport, type Finding, type RouteRow } from './report';
import { declaredAt, otherRows, routesByRouter, type RouterRoutes } from './routes';

/**
 * `trellis doctor`: everything `run` would check and more, without starting a server. Keeps going after
 * a problem so one run reports as much as it can.
 */
export async function analyse(path: string): Promise<DoctorReport> {
  const project = openProject(path);
  const errors: Finding[] = configProblems(project).map((problem) => errorAt(problem, 'config'));
  const discovery = discover(project.dir);
  errors.push(...discovery.failures.map((problem) => errorAt(problem, 'load')));
  const middleware = globalMiddleware(project, discovery);
  errors.push(...middleware.problems.map((problem) => errorAt(problem, 'config')));

  const { routers, findings } = routesByRouter(project, discovery);
  errors.push(...findings);
  const appErrors: Finding[] = [];
  const app = fullApp(project, discovery, middleware.classes, routers, appErrors);
  const routes = routers.flatMap((router) => router.routes);
  // The table lists every route of the app: the routers' (each from its own app, so clashing ones too), then the framework's.
  const rows = [...routers.flatMap((router) => router.rows), ...otherRows(app, routers)];
  const pairs = routers.flatMap((router) => router.routes.map((route, i): [InspectedRoute, RouteRow] => [route, router.rows[i]]));
  errors.push(...duplicateRoutes(rows), ...unboundParams(pairs), ...appErrors);

  const warnings: Finding[] = [
    ...shadowedRoutes(rows),
    ...unvalidatedModels(project.dir, routes, discovery.models),
    ...unusedClasses(project.dir, discovery, middleware.classes, routes),
    ...missingFiles(project),
  ];

  const openapi = await checkOpenApi(app);
  errors.push(...openapi.findings);

  return {
    project: project.display,
    config: project.config.file ? CONFIG_FILE : null,
    routers: routers.map((router) => ({
      name: router.found.cls.name,
      ...declaredAt(project.dir, router.found),
      routes: router.routes.length,
      rejected: router.rejected,
    })),
    routes: rows,
    errors,
    warnings,
    openapi: openapi.result,
    summary: { routers: routers.length, routes: rows.filter((row) => !row.builtIn).length, errors: errors.length, warnings: warnings.length },
  };
}

/**
 * The whole app as `run` would serve it, from the routers already built (a router whose routes clash
 * with earlier ones is left out: that clash is reported already). Compiling it surfaces middleware and
 * dependency errors; undefined when it cannot be built.
 */
function fullApp(
  project: Project,
  discovery: Discovery,
  middleware: Array<Class<Middleware>>,
  routers: RouterRoutes[],
  errors: Finding[],
): BaseRouter | undefined {
  try {
    const app = createApp(project, discovery, middleware, { logger: createLogger({ level: 'silent' }) });
    for (const router of routers) {
      if (!router.instance) continue;
      try {
        app.includeRouter(router.instance);
      } catch {
        // a duplicate route, reported by duplicateRoutes
      }
    }
    mountAssets(app, project);
    void app.handler;
    return app;
  } catch (error) {
    const located = configValueProblems(project.config, error);
    if (located.length) {
      errors.push(...located.map((problem) => errorAt(problem, 'config')));
      return undefined;
    }
    errors.push({ severity: 'error', code: 'app', message: `The app cannot start: ${error instanceof Error ? error.message : String(error)}` });
    return undefined;
  }
}
