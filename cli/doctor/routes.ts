import { join, relative, sep } from 'node:path';
import { createLogger } from 'trellis/runtime';
import type { BaseRouter } from 'trellis';
import type { Controller } from 'trellis/inspect';
import { declarationOf, inspectApp, type InspectedRoute } from 'trellis/inspect';
import { createApp, includeRouter, registerDatabase, type Discovery, type Found, type Project } from 'trellis/internal';
import { errorAt, type Finding, type RouteRow } from './report';

/** A discovered router and what the framework made of it. */
export interface RouterRoutes {
  found: Found<Controller>;
  /** Empty when the framework rejected the router (see the findings). */
  routes: InspectedRoute[];
  rejected: boolean;
  rows: RouteRow[];
}

/**
 * Includes each router in an app of its own (config, services and the database provided), so one router's mistake
 * neither hides another's routes nor counts as a clash with them. Rejections become error findings.
 */
export function routesByRouter(project: Project, discovery: Discovery): { routers: RouterRoutes[]; findings: Finding[] } {
  const routers: RouterRoutes[] = [];
  const findings: Finding[] = [];
  const silent = createLogger({ level: 'silent' });
  for (const found of discovery.routers) {
    const app = createApp(project, discovery, [], { logger: silent });
    registerDatabase(app, project); // it provides Kysely; what it refuses is the full app's error
    const problem = includeRouter(app, found, project);
    if (problem) {
      findings.push(errorAt(problem));
      routers.push({ found, routes: [], rows: [], rejected: true });
      continue;
    }
    const routes = inspectApp(app).routes.filter((route) => route.router === found.cls);
    const rows = routes.map((route) => rowOf(project.dir, route, found));
    routers.push({ found, routes, rows, rejected: false });
  }
  return { routers, findings };
}

/**
 * The routes of the full app that no discovered router declares: the framework's own (docs pages, static
 * files, the favicon), which config.yaml sets up, so they have no source line in the project.
 */
export function otherRows(app: BaseRouter | undefined, routers: RouterRoutes[]): RouteRow[] {
  const discovered = new Set<Function>(routers.map((router) => router.found.cls));
  return app
    ? inspectApp(app).routes.filter((route) => !discovered.has(route.router)).map((route) => ({ method: route.method, path: route.path, handler: route.label, builtIn: true }))
    : [];
}

/** Where a discovered class is declared: its file, and the line of its name. */
export function declaredAt(projectDir: string, found: Found): { file: string; line: number } {
  return { file: found.file, line: declarationOf(join(projectDir, found.file), found.cls.name)?.line ?? 1 };
}

// A route declared outside the project (a base router from a package) is shown at its router's class.
function rowOf(projectDir: string, route: InspectedRoute, found?: Found): RouteRow {
  const file = route.source && inside(projectDir, route.source.file);
  const where = file ? { file, line: route.source!.line } : found ? declaredAt(projectDir, found) : { file: route.source?.file, line: route.source?.line };
  return { method: route.method, path: route.path, handler: route.label, ...where };
}

function inside(dir: string, file: string): string | undefined {
  const rel = relative(dir, file);
  return rel.startsWith('..') || rel.startsWith(sep) ? undefined : rel.split(sep).join('/');
}
