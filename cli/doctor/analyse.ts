import { createLogger } from 'trellis/runtime';
import type { BaseRouter, Middleware } from 'trellis';
import type { Class, TrellisError } from 'trellis/inspect';
import { dryStart, inspectApp, responseShapeProblems, scopeProblems, type InspectedRoute } from 'trellis/inspect';
import {
  CONFIG_FILE,
  configProblems,
  configValueProblems,
  createApp,
  settingsProblems,
  discover,
  globalMiddleware,
  mountAssets,
  openProject,
  registerDatabase,
  registerFeatures,
  registerPlugins,
  type Discovery,
  type Project,
} from 'trellis/internal';
import { duplicateRoutes } from './checks/duplicates';
import { missingFiles } from './checks/files';
import { pendingMigrations } from './checks/migrations';
import { unvalidatedModels } from './checks/models';
import { bareProperties } from './checks/properties';
import { checkOpenApi } from './checks/openapi';
import { unboundParams } from './checks/params';
import { shadowedRoutes } from './checks/shadowing';
import { unusedClasses } from './checks/usage';
import { validationRows } from './checks/validation';
import { checkGateways, registerGateways, type GatewayCheck } from './gateways';
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
  // @Settings classes the project's classes take, checked against config.yaml without building anything.
  const classes = [...discovery.routers, ...discovery.services].map((found) => found.cls as Class).concat(discovery.middleware.flatMap((file) => file.classes));
  errors.push(...settingsProblems(project.config, classes).map((problem) => errorAt(problem, 'config')));

  const { routers, findings } = routesByRouter(project, discovery);
  errors.push(...findings);
  const gateways = checkGateways(project, discovery);
  errors.push(...gateways.findings);
  const appErrors: Finding[] = [];
  const app = await fullApp(project, discovery, middleware.classes, routers, gateways.gateways, appErrors);
  const routes = routers.flatMap((router) => router.routes);
  // The table lists every route of the app: the routers' (each from its own app, so clashing ones too), then the framework's.
  const rows = [...routers.flatMap((router) => router.rows), ...otherRows(app, routers)];
  const pairs = routers.flatMap((router) => router.routes.map((route, i): [InspectedRoute, RouteRow] => [route, router.rows[i]]));
  errors.push(...duplicateRoutes(rows), ...unboundParams(pairs), ...appErrors);
  if (app) errors.push(...responseShapeProblems(app).map((problem) => routeFinding(rows, problem)), ...scopeProblems(app).map((problem) => routeFinding(rows, problem)));

  const warnings: Finding[] = [
    ...shadowedRoutes(rows),
    ...unvalidatedModels(project.dir, routes, discovery.models),
    ...bareProperties(project.dir, routes, discovery.models),
    ...unusedClasses(project.dir, discovery, middleware.classes, app ? inspectApp(app).routes : routes),
    ...missingFiles(project),
    ...(await pendingMigrations(project)),
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
    gateways: gateways.gateways.map((gateway) => gateway.row),
    errors,
    warnings,
    openapi: openapi.result,
    validation: validationRows(project.dir, routes, discovery.models),
    summary: { routers: routers.length, routes: rows.filter((row) => !row.builtIn).length, errors: errors.length, warnings: warnings.length },
  };
}

/**
 * The whole app as `run` would serve it, from the routers already checked (a router whose routes clash
 * with earlier ones is left out: that clash is reported already). A dry start surfaces middleware and
 * dependency errors, and settings read by constructors, without running a lifecycle hook or a factory or
 * building anything that has one; undefined when it cannot be built.
 */
async function fullApp(
  project: Project,
  discovery: Discovery,
  middleware: Array<Class<Middleware>>,
  routers: RouterRoutes[],
  gateways: GatewayCheck[],
  errors: Finding[],
): Promise<BaseRouter | undefined> {
  try {
    const app = createApp(project, discovery, middleware, { logger: createLogger({ level: 'silent' }) });
    // The database's plug-in (it provides Kysely), the features', the gateways', then those of plugins/: a section of config.yaml
    // that does not fit (or that needs a package not installed) is reported at its line.
    const refused = [...registerDatabase(app, project)];
    // The sections of CORS, compression, rate limits and ETags, as trellis run registers them; the gateways apart,
    // so that what is refused of one is located at its class.
    if (!refused.length) refused.push(...registerFeatures(app, discovery, project, { except: ['websockets'] }));
    if (!refused.length) refused.push(...registerGateways(app, project, gateways));
    if (!refused.length) refused.push(...registerPlugins(app, discovery, project));
    if (refused.length) {
      errors.push(...refused.map((problem) => errorAt(problem, problem.file === CONFIG_FILE ? 'config' : problem.code)));
      return undefined;
    }
    for (const router of routers) {
      if (router.rejected) continue;
      try {
        app.includeRouter(router.found.cls);
      } catch {
        // a duplicate route, reported by duplicateRoutes
      }
    }
    mountAssets(app, project);
    const dry = await dryStart(app);
    if (dry.problems.length) {
      errors.push(...dry.problems.map((problem) => wiringFinding(project, discovery, problem)));
      return undefined;
    }
    if (dry.failure !== undefined) throw dry.failure;
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

/** A problem of a route (`details.handler`) at the line the route is declared on, as the table shows it. */
function routeFinding(rows: readonly RouteRow[], problem: TrellisError): Finding {
  const row = rows.find((candidate) => candidate.handler === problem.details.handler && candidate.file !== undefined);
  return { severity: 'error', code: problem.code, message: problem.message, ...(row && { file: row.file, line: row.line }) };
}

/** A wiring problem at the class it names (`details.consumer`) when the project declares it, else unlocated. */
function wiringFinding(project: Project, discovery: Discovery, problem: TrellisError): Finding {
  const consumer = problem.details.consumer;
  const found = [...discovery.routers, ...(discovery.gateways ?? []), ...discovery.services, ...discovery.middleware.flatMap((m) => m.classes.map((cls) => ({ cls, file: m.file })))].find(
    (candidate) => candidate.cls.name === consumer,
  );
  return { severity: 'error', code: problem.code, message: problem.message, ...(found && declaredAt(project.dir, found)) };
}
