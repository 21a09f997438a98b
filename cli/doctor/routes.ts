import { join, relative, sep } from 'node:path';
import { createLogger, type RouteInfo, type Controller } from '../../framework/index';
import { classLine, createApp, includeRouter, methodLine, type Discovery, type Found, type Project } from '../../runtime';
import { errorAt, type Finding, type RouteRow } from './report';

/** A discovered router and what the framework made of it. */
export interface RouterRoutes {
  found: Found<Controller>;
  /** Empty when the framework rejected the router (see the findings). */
  routes: readonly RouteInfo[];
  /** The built router, reusable in a full app; undefined when rejected or without routes. */
  instance?: Controller;
  rejected: boolean;
  rows: RouteRow[];
}

/**
 * Includes each router in an app of its own (config and services provided), so one router's mistake
 * neither hides another's routes nor counts as a clash with them. Rejections become error findings.
 */
export function routesByRouter(project: Project, discovery: Discovery): { routers: RouterRoutes[]; findings: Finding[] } {
  const routers: RouterRoutes[] = [];
  const findings: Finding[] = [];
  const silent = createLogger({ level: 'silent' });
  for (const found of discovery.routers) {
    const app = createApp(project, discovery, [], { logger: silent });
    const problem = includeRouter(app, found, project);
    if (problem) {
      findings.push(errorAt(problem));
      routers.push({ found, routes: [], rows: [], rejected: true });
      continue;
    }
    const routes = app.routes;
    routers.push({ found, routes, instance: routes[0]?.router, rows: routes.map((route) => rowOf(project, found, route)), rejected: false });
  }
  return { routers, findings };
}

function rowOf(project: Project, found: Found<Controller>, route: RouteInfo): RouteRow {
  const file = (route.source && inside(project.dir, route.source.file)) ?? found.file;
  const absolute = join(project.dir, file);
  const className = found.cls.name;
  const line = methodLine(absolute, className, String(route.handlerName), route.source?.line ?? classLine(absolute, className));
  return { method: route.method, path: route.path, handler: route.label, file, line };
}

function inside(dir: string, file: string): string | undefined {
  const rel = relative(dir, file);
  return rel.startsWith('..') || rel.startsWith(sep) ? undefined : rel.split(sep).join('/');
}
