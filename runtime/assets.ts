import { existsSync, statSync } from 'node:fs';
import type { BaseRouter } from '../framework/index';
import { projectPath, type Project } from './project';

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * Static files, templates and `favicon.ico`, as config.yaml says; each only when it exists (the banner
 * marks a missing folder and `trellis doctor` warns about it). The docs are an app option (`createApp`).
 *
 * @example
 * ```ts
 * mountAssets(app, project); // static/, templates/ and favicon.ico, when they exist
 * ```
 */
export function mountAssets(app: BaseRouter, project: Project): void {
  const { settings } = project.config;
  const staticDir = projectPath(project, settings.static.dir);
  if (isDir(staticDir)) app.mountStatic(settings.static.url, staticDir);
  const templatesDir = projectPath(project, settings.templates.dir);
  if (isDir(templatesDir)) app.templates(templatesDir);
  const favicon = projectPath(project, 'favicon.ico');
  if (isFile(favicon)) app.favicon(favicon);
}
