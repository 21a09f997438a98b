import { existsSync } from 'node:fs';
import { version } from '../package.json';
import { databaseLabel } from './database';
import { messages } from './messages';
import type { Discovery } from './discover';
import { projectPath, shownPath, type Project } from './project';

/**
 * What `trellis run` prints once the app listens: name and version, the app (its path; a build's title) and its
 * address, the config file, routers discovered, static and templates folders, middleware loaded, the database, with
 * `--workers` that each worker has its own services (or that they share the database server), and a pointer to `doctor`.
 */
export function bannerLines(project: Project, discovery: Discovery, url: string, workers = 1): string[] {
  const { settings, file } = project.config;
  const middleware = discovery.middleware.reduce((count, m) => count + m.classes.length, 0);
  const database = databaseLabel(project);
  return [
    messages.run.banner(version),
    // A build is started from its own folder (`dist`), which names no app: its title does.
    messages.run.running(project.built ? settings.app.title : project.display, url),
    messages.run.config(file && shownPath(project, 'config.yaml')),
    messages.run.routers(discovery.routers.length),
    messages.run.static(shownPath(project, settings.static.dir), existsSync(projectPath(project, settings.static.dir))),
    messages.run.templates(shownPath(project, settings.templates.dir), existsSync(projectPath(project, settings.templates.dir))),
    messages.run.middleware(middleware),
    ...(database ? [messages.run.database(database)] : []),
    ...(workers > 1 ? [workersLine(project, discovery, workers)] : []),
    // A build is served without the CLI: no `trellis doctor` to suggest.
    ...(project.built ? [] : [messages.run.doctorHint(project.display)]),
  ];
}

// Only a server is shared by several workers (`--workers` refuses the embedded database).
function workersLine(project: Project, discovery: Discovery, workers: number): string {
  if (project.config.settings.database?.url) return messages.run.workersSharing(workers);
  return messages.run.workers(workers, discovery.services.map((service) => service.cls.name));
}

/** `http://localhost:8000`; IPv6 addresses in brackets. */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
