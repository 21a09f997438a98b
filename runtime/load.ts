import type { BaseRouter } from '../framework/index';
import { ProjectError } from './project-error';
import { messages } from './messages';
import { createApp, globalMiddleware, includeRouter, type AppOverrides } from './assemble';
import { mountAssets } from './assets';
import { configValueProblem } from './config-value';
import { discover, type Discovery } from './discover';
import { addressFromEnvironment } from './environment';
import { formatProblem, type Problem } from './problem';
import { configProblems, openProject, type Project } from './project';

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
 */
export function loadProject(path: string, overrides: AppOverrides = {}): LoadedProject {
  const project = openProject(path);
  const stop = (problems: Problem[]) => {
    if (problems.length) throw new ProjectError(formatProblem(project.display, problems[0]));
  };
  stop(configProblems(project));
  const fromEnvironment = addressFromEnvironment();
  const { server } = project.config.settings;
  const address = {
    host: overrides.host ?? fromEnvironment.host ?? server.host,
    port: overrides.port ?? fromEnvironment.port ?? server.port,
  };
  const discovery = discover(project.dir);
  stop(discovery.failures);
  const middleware = globalMiddleware(project, discovery);
  stop(middleware.problems);
  const app = createApp(project, discovery, middleware.classes, { ...overrides, ...address });
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
