import { existsSync, statSync } from 'node:fs';
import type { BaseRouter } from '../framework/index';
import { favicon, staticFiles, templates } from '../framework/plugins';
import { projectPath, type Project } from './project';

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * Static files, templates and `favicon.ico`, as config.yaml says, each registered as its plug-in, only when it
 * exists (the banner marks a missing folder and `trellis doctor` warns about it). The docs, health and metrics
 * plug-ins are app options (`createApp`).
 *
 * @example
 * ```ts
 * mountAssets(app, project); // static/, templates/ and favicon.ico, when they exist
 * ```
 */
export function mountAssets(app: BaseRouter, project: Project): void {
  const { settings } = project.config;
  const staticDir = projectPath(project, settings.static.dir);
  if (isDir(staticDir)) app.register(staticFiles(settings.static.url, staticDir));
  const templatesDir = projectPath(project, settings.templates.dir);
  if (isDir(templatesDir)) app.register(templates(templatesDir));
  const icon = projectPath(project, 'favicon.ico');
  if (isFile(icon)) app.register(favicon(icon));
}
