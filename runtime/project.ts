import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ProjectError } from './project-error';
import { messages } from './messages';
import { CONFIG_FILE, readConfig, type LoadedConfig } from './config';
import { loadDotEnv } from './environment';
import type { Problem } from './problem';

/** A project folder as the user named it, with its config read (issues included, not thrown). */
export interface Project {
  /** Absolute path. */
  dir: string;
  /** The path as given on the command line (`.`, `demo`), for messages. */
  display: string;
  config: LoadedConfig;
  /** A build folder (`trellis build`'s output, served from its manifest) rather than a source project. */
  built?: boolean;
}

/** How {@link openProject} reads the environment. */
export interface OpenOptions {
  /** Load the project's `.env` into `env` before config.yaml is read (development; the default). */
  dotenv?: boolean;
  /** Where `.env` goes and `${NAME}` references are read from: `process.env` by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Opens `<path>`; fails (one line) when it is not a folder holding `config.yaml` or `routers/`. In development
 * (the default) the project's `.env` is loaded first, so config.yaml's references see it; `dotenv: false` leaves
 * the environment as it is. With `env`, both happen in that object instead of `process.env`.
 *
 * @example
 * ```ts
 * const project = openProject('demo'); // { dir: '/home/me/demo', display: 'demo', config }
 * const env = { ...process.env };
 * openProject('demo', { env }); // .env read into `env`, this process's environment left as it is
 * ```
 */
export function openProject(path: string, { dotenv = true, env = process.env }: OpenOptions = {}): Project {
  const dir = resolve(path);
  if (!existsSync(dir)) throw new ProjectError(messages.project.notFound(path));
  if (!statSync(dir).isDirectory()) throw new ProjectError(messages.project.notADirectory(path));
  if (!existsSync(join(dir, CONFIG_FILE)) && !existsSync(join(dir, 'routers'))) {
    throw new ProjectError(messages.project.notAProject(path));
  }
  if (dotenv) loadDotEnv(dir, env);
  return { dir, display: path, config: readConfig(dir, env) };
}

/**
 * The config issues as located problems.
 *
 * @example
 * ```ts
 * for (const problem of configProblems(openProject('.'))) console.log(formatProblem('.', problem));
 * ```
 */
export function configProblems(project: Project): Problem[] {
  return project.config.issues.map((issue) => ({ file: CONFIG_FILE, ...issue }));
}

/**
 * A path from config.yaml (relative to the project, or absolute) as an absolute path.
 *
 * @example
 * ```ts
 * projectPath(project, project.config.settings.static.dir); // '/home/me/demo/static'
 * ```
 */
export function projectPath(project: Pick<Project, 'dir'>, path: string): string {
  return resolve(project.dir, path);
}

/** The same path as the user sees it from where they ran the command (`demo/static`). */
export function shownPath(project: Pick<Project, 'display'>, path: string): string {
  return isAbsolute(path) ? path : join(project.display, path);
}
