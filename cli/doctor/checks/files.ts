import { existsSync, statSync } from 'node:fs';
import { CONFIG_FILE, projectPath, type Project } from 'trellis/internal';
import type { Finding } from '../report';

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** The static and templates folders config.yaml names, and favicon.ico, exist. */
export function missingFiles(project: Project): Finding[] {
  const { settings, lineOf } = project.config;
  const findings: Finding[] = [];
  const missing = (code: string, message: string, key: string[]) =>
    findings.push({ severity: 'warning', code, message, ...(lineOf(key) && { file: CONFIG_FILE, line: lineOf(key) }) });
  if (!isDir(projectPath(project, settings.static.dir))) {
    missing('missing-static', `static folder ${settings.static.dir}/ not found: nothing is served under ${settings.static.url}`, ['static', 'dir']);
  }
  if (!isDir(projectPath(project, settings.templates.dir))) {
    missing('missing-templates', `templates folder ${settings.templates.dir}/ not found: rendering a template will fail`, ['templates', 'dir']);
  }
  if (!existsSync(projectPath(project, 'favicon.ico'))) {
    findings.push({ severity: 'warning', code: 'missing-favicon', message: 'favicon.ico not found: browsers get a 404 for /favicon.ico' });
  }
  return findings;
}
