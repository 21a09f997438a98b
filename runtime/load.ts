import { TrellisError } from '../framework/inspect';
import type { BaseRouter } from '../framework/index';
import { ProjectError } from './project-error';
import { messages } from './messages';
import { createApp, globalMiddleware, includeRouter, registerPlugins, type AppOverrides } from './assemble';
import { mountAssets } from './assets';
import { configValueProblem } from './config-value';
import { registerDatabase } from './database';
import { discover, type Discovery } from './discover';
import { registerFeatures } from './features';
import { describeLoadError } from './load-error';
import { addressFromEnvironment } from './environment';
import { formatProblem, type Problem } from './problem';
import { configProblems, openProject, type Project } from './project';

const DATABASE_CODES = new Set(['TRELLIS_ERR_DATABASE_LOCKED', 'TRELLIS_ERR_DATABASE_UNREACHABLE', 'TRELLIS_ERR_MIGRATION_PENDING', 'TRELLIS_ERR_MIGRATION_FAILED']);

/** A project (or build) opened, its classes found, its app assembled and checked, and where to listen. */
export interface LoadedProject {
  project: Project;
  discovery: Discovery;
  app: BaseRouter;
  /** Where to listen: `--host`/`--port` > `HOST`/`PORT` in the environment > config.yaml > localhost:8000. */
  address: { host: string; port: number };
}

/**
 * Opens, discovers and assembles a project the way `trellis run` serves it, checking everything a
 * request would otherwise trip over. The first problem stops it: a `ProjectError` with `file:line: message`.
 *
 * @example
 * ```ts
 * const { app, address } = loadProject('demo');
 * await app.listen(address);
 * ```
 */
export function loadProject(path: string, overrides: AppOverrides = {}): LoadedProject {
  const project = openProject(path);
  stopAt(project, configProblems(project));
  return assembleProject(project, discover(project.dir), overrides);
}

/** The first problem, as a `ProjectError`. */
export function stopAt(project: Project, problems: Problem[]): void {
  if (problems.length) throw new ProjectError(formatProblem(project.display, problems[0]));
}

/**
 * The app of a project whose classes are found (from its source files, or from a build's manifest): global
 * middleware, services, plug-ins, routers and assets, checked, and the address to listen on; the first problem stops it.
 */
export function assembleProject(project: Project, discovery: Discovery, overrides: AppOverrides = {}): LoadedProject {
  const stop = (problems: Problem[]) => stopAt(project, problems);
  const fromEnvironment = addressFromEnvironment();
  const { server } = project.config.settings;
  const address = {
    host: overrides.host ?? fromEnvironment.host ?? server.host,
    port: overrides.port ?? fromEnvironment.port ?? server.port,
  };
  stop(discovery.failures);
  const middleware = globalMiddleware(project, discovery);
  stop(middleware.problems);
  const app = createApp(project, discovery, middleware.classes, { ...overrides, ...address });
  stop(registerDatabase(app, project));
  stop(registerFeatures(app, discovery, project));
  stop(registerPlugins(app, discovery, project));
  for (const router of discovery.routers) {
    const problem = includeRouter(app, router, project);
    if (problem) stop([problem]);
  }
  mountAssets(app, project);
  try {
    void app.handler; // compiles the app: middleware and dependency errors surface now, not on a request
  } catch (error) {
    const located = configValueProblem(project.config, error);
    if (located) stop([located]);
    throw new ProjectError(messages.run.appInvalid(project.display, error instanceof Error ? error.message : String(error)));
  }
  return { project, discovery, app, address };
}

/**
 * Starts a loaded project's app (`app.start()`: services built, startup hooks run), before it listens. A
 * setting of the wrong kind stops it at its line in config.yaml; a hook, factory or constructor that throws
 * with one line naming it (`Database.onStartup() failed: ...`) and, when the error came from the project's
 * code, where it was thrown.
 *
 * @example
 * ```ts
 * const loaded = loadProject('demo');
 * await startProject(loaded);
 * await loaded.app.listen(loaded.address);
 * ```
 */
export async function startProject({ project, app }: Pick<LoadedProject, 'project' | 'app'>): Promise<void> {
  try {
    await app.start();
  } catch (error) {
    const located = configValueProblem(project.config, error);
    if (located) stopAt(project, [located]);
    const cause = error instanceof TrellisError ? (error as Error & { cause?: unknown }).cause : error;
    // The database's own line says it all (the embedded folder in use, the server unreachable, a migration missing).
    if (cause instanceof TrellisError && DATABASE_CODES.has(cause.code)) throw new ProjectError(cause.message);
    const where = cause instanceof Error ? describeLoadError(cause, '', project.dir) : undefined;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProjectError(where?.file ? formatProblem(project.display, { ...where, message }) : messages.run.appInvalid(project.display, message));
  }
}
