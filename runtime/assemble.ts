import { join } from 'node:path';
import { BaseRouter, Config, type Middleware } from '../framework/index';
import { TrellisError, type Class, type Controller } from '../framework/inspect';
import type { Logger } from '../framework/internal';
import { declarationOf, handlerOf } from '../framework/inspect';
import { CONFIG_FILE } from './config';
import { configValueProblem, configValueProblems } from './config-value';
import type { Discovery, Found, FoundPlugin } from './discover';
import type { Problem } from './problem';
import type { Project } from './project';
import { describeLoadError } from './load-error';
import { formatProblem } from './problem';
import { ProjectError } from './project-error';

/** What the caller decides over config.yaml: the address (flags, environment) and the app's logger. */
export interface AppOverrides {
  host?: string;
  port?: number;
  logger?: Logger;
}

/**
 * The classes `config.yaml`'s `middleware: [...]` names, in that order; a name with no file, or a file
 * with several middleware classes and no default export, is a problem at its line in the list.
 *
 * @example
 * ```ts
 * const { classes, problems } = globalMiddleware(project, discover(project.dir));
 * ```
 */
export function globalMiddleware(project: Project, discovery: Discovery): { classes: Array<Class<Middleware>>; problems: Problem[] } {
  const classes: Array<Class<Middleware>> = [];
  const problems: Problem[] = [];
  project.config.settings.middleware.forEach((name, index) => {
    const line = project.config.lineOf(['middleware', String(index)]) ?? 1;
    const found = discovery.middleware.find((m) => m.name === name);
    if (!found) {
      const known = discovery.middleware.map((m) => m.name).join(', ') || 'none';
      problems.push({ file: CONFIG_FILE, line, message: `middleware ${name}: no middleware/${name}.ts exporting a Middleware class (found: ${known})` });
    } else if (!found.main) {
      const names = found.classes.map((c) => c.name).join(', ');
      problems.push({ file: CONFIG_FILE, line, message: `middleware ${name}: ${found.file} exports several middleware classes (${names}); make one the default export` });
    } else classes.push(found.main);
  });
  return { classes, problems };
}

/**
 * The app of a project without its routers: title, version and description from `config.yaml`, a
 * `Config` instance and every service provided for injection, global middleware added.
 *
 * @example
 * ```ts
 * const app = createApp(project, discovery, globalMiddleware(project, discovery).classes);
 * ```
 */
export function createApp(project: Project, discovery: Discovery, middleware: Array<Class<Middleware>>, overrides: AppOverrides = {}): BaseRouter {
  const { settings, values } = project.config;
  const server = { ...settings.server, ...definedOnly({ host: overrides.host, port: overrides.port }) };
  if (settings.versioning?.default_version !== undefined && settings.versioning.type !== 'header') {
    const line = project.config.lineOf(['versioning', 'default_version']) ?? 1;
    throw new ProjectError(formatProblem(project.display, { file: CONFIG_FILE, line, message: 'versioning.default_version applies to type: header only (a URI always names its version)' }));
  }
  const app = new BaseRouter({
    title: settings.app.title,
    version: settings.app.version,
    description: settings.app.description,
    bodyLimit: settings.server.body_limit,
    maxObjectKeys: settings.server.max_object_keys,
    maxJsonContainers: settings.server.max_json_containers,
    requestIdHeader: settings.server.request_id_header,
    logger: overrides.logger,
    docs: settings.docs.enabled ? { path: settings.docs.path } : false,
    health: settings.health.enabled && {
      path: settings.health.path,
      readyPath: settings.health.ready_path,
      checkInterval: settings.health.check_interval,
    },
    metrics: settings.metrics.enabled ? { path: settings.metrics.path } : false,
    docComments: discovery.docComments,
    sourceTypes: discovery.sourceTypes,
    versioning: settings.versioning && {
      type: settings.versioning.type,
      header: settings.versioning.header,
      prefix: settings.versioning.prefix,
      defaultVersion: settings.versioning.default_version,
    },
  });
  app.provide(new Config({ ...values, server }));
  app.provide(...discovery.services.map((service) => service.cls));
  app.addMiddleware(...middleware);
  return app;
}

/**
 * Registers the plug-ins of the project's `plugins/` on its app (after `createApp`: `Config` and the services are
 * provided, so a plug-in reads its config.yaml section with `host.settings(...)`), in discovery order, stopping at the
 * first that fails: a section that does not fit is a problem at its line in config.yaml (one per failing setting),
 * anything else a problem at the plug-in's file.
 *
 * @example
 * ```ts
 * const app = createApp(project, discovery, middleware);
 * const problems = registerPlugins(app, discovery, project);
 * ```
 */
export function registerPlugins(app: BaseRouter, discovery: Discovery, project: Pick<Project, 'dir' | 'config'>): Problem[] {
  for (const found of discovery.plugins ?? []) {
    try {
      app.register(found.plugin);
    } catch (error) {
      const located = configValueProblems(project.config, error);
      return located.length ? located : [pluginProblem(found, project.dir, error)];
    }
  }
  return [];
}

// A framework error at the plug-in's file (its first line: a plug-in is a value, not a class to find); what the
// plug-in's own code threw, where it threw.
function pluginProblem(found: FoundPlugin, projectDir: string, error: unknown): Problem {
  const cause = error instanceof TrellisError ? (error as Error & { cause?: unknown }).cause : undefined;
  const thrown = describeLoadError(cause ?? error, found.file, projectDir);
  const message = error instanceof Error ? error.message : String(error);
  return { file: thrown.file || found.file, line: thrown.line, message, ...(error instanceof TrellisError && { code: error.code }) };
}

/**
 * Includes one router; what the framework rejects (duplicate route, unknown dependency...) becomes a problem
 * at the class, a setting its constructor found of the wrong kind a problem at its line in config.yaml.
 *
 * @example
 * ```ts
 * for (const router of discovery.routers) {
 *   const problem = includeRouter(app, router, project);
 *   if (problem) console.log(formatProblem(project.display, problem));
 * }
 * ```
 */
export function includeRouter(app: BaseRouter, router: Found<Controller>, project: Pick<Project, 'dir' | 'config'>): Problem | undefined {
  try {
    app.includeRouter(router.cls);
    return undefined;
  } catch (error) {
    return configValueProblem(project.config, error) ?? problemAt(router, project.dir, error);
  }
}

/**
 * Locates an error raised while building a class: a framework error at the handler of that class its
 * details name (`details.handler`, `TaskRouter.one`) or else at the class; any other error where the
 * project's code threw it.
 */
export function problemAt(found: Found, projectDir: string, error: unknown): Problem {
  if (!(error instanceof TrellisError)) return describeLoadError(error, found.file, projectDir);
  const file = join(projectDir, found.file);
  const handler = handlerOf(found.cls, error.details.handler);
  const where = (handler === undefined ? undefined : declarationOf(file, found.cls.name, handler)) ?? declarationOf(file, found.cls.name);
  return { file: found.file, line: where?.line ?? 1, message: error.message, code: error.code };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
