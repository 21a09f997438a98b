import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Class, Controller, DocCommentTable, TypeTable } from '../framework/inspect';
import type { Middleware } from '../framework/index';
import { isMiddlewareClass, isPlugin, isRouterClass } from '../framework/inspect';
import { isGatewayClass, type Gateway } from '../framework/websocket';
import type { AppOverrides } from './assemble';
import { readConfig } from './config';
import { exportsOf, type Discovery, type Found, type FoundMiddleware, type FoundPlugin } from './discover';
import { assembleProject, stopAt, type LoadedProject } from './load';
import { describeLoadError } from './load-error';
import { readManifest, type BuildManifest, type ManifestModule } from './manifest';
import { messages } from './messages';
import { formatProblem, type Problem } from './problem';
import { ProjectError } from './project-error';
import { configProblems, type Project } from './project';

/**
 * Loads a build folder (what `trellis build` wrote: compiled files, `config.yaml`, assets and
 * `trellis.manifest.json`) the way `trellis run` loads a project, but from the manifest: the files it lists
 * are required in its order and the classes it names are taken, without scanning folders, compiling or
 * reading a source file. The first problem stops it: a `ProjectError` with `file:line: message`.
 *
 * @example
 * ```ts
 * const { app } = loadBuild(join(__dirname));
 * await app.listen({ port: 8000 });
 * ```
 */
export function loadBuild(path: string, overrides: AppOverrides = {}): LoadedProject {
  const { project, manifest } = openBuild(path);
  return assembleProject(project, discoveryOf(project.dir, manifest), overrides);
}

/**
 * A build folder opened as a project (`built`): its manifest read, its config.yaml read with the environment (from
 * the manifest's snapshot while the file is as built) and checked; the first problem stops it with a `ProjectError`.
 *
 * @example
 * ```ts
 * const { project } = openBuild(__dirname);
 * ```
 */
export function openBuild(path: string): { project: Project; manifest: BuildManifest } {
  const dir = resolve(path);
  const display = shown(dir);
  const manifest = readManifest(dir, display);
  const config = readConfig(dir, process.env, manifest.configSnapshot);
  const issues = config.issues.map((issue) => (issue.unset === undefined ? issue : { ...issue, message: messages.build.unset(issue.unset) }));
  const project: Project = { dir, display, config: { ...config, issues }, built: true };
  stopAt(project, configProblems(project));
  return { project, manifest };
}

/**
 * Requires the files a build's manifest lists, in its order, and takes the classes it names, as `loadBuild`
 * does, without reading config.yaml or assembling the app: what `trellis build` runs so that the bundle's code
 * cache holds what a start compiles. The first problem stops it: a `ProjectError` with `file:line: message`.
 *
 * @example
 * ```ts
 * loadBuildModules(join(__dirname));
 * ```
 */
export function loadBuildModules(path: string): void {
  const dir = resolve(path);
  const display = shown(dir);
  const { failures } = discoveryOf(dir, readManifest(dir, display));
  if (failures.length) throw new ProjectError(formatProblem(display, failures[0]));
}

/** The discovery the manifest records, its classes taken from the compiled modules. */
function discoveryOf(dir: string, manifest: BuildManifest): Discovery {
  const failures: Problem[] = [];
  const load = (entry: ManifestModule): Record<string, unknown> | undefined => {
    try {
      return exportsOf(require(join(dir, entry.file)));
    } catch (error) {
      failures.push(describeLoadError(error, entry.file, dir));
      return undefined;
    }
  };
  const take = <T>(entry: ManifestModule, exports: Record<string, unknown>, name: string, is: (value: unknown) => boolean): Class<T> | undefined => {
    const value = exports[name];
    if (is(value)) return value as Class<T>;
    failures.push({ file: entry.file, line: 1, message: messages.build.missingExport(entry.file, name) });
    return undefined;
  };
  const isClass = (value: unknown) => typeof value === 'function';

  const services: Found[] = [];
  for (const entry of manifest.services) {
    const exports = load(entry);
    for (const name of exports ? entry.classes : []) {
      const cls = take(entry, exports!, name, isClass);
      if (cls) services.push({ cls, file: entry.file });
    }
  }
  const middleware: FoundMiddleware[] = [];
  for (const entry of manifest.middleware) {
    const exports = load(entry);
    if (!exports) continue;
    const classes = entry.classes.map((name) => take<Middleware>(entry, exports, name, isMiddlewareClass)).filter((cls) => cls !== undefined);
    const main = entry.main === null ? undefined : take<Middleware>(entry, exports, entry.main, isMiddlewareClass);
    middleware.push({ name: entry.name, file: entry.file, classes, main });
  }
  const plugins: FoundPlugin[] = [];
  for (const entry of manifest.plugins ?? []) {
    const exports = load(entry);
    for (const name of exports ? entry.classes : []) {
      const plugin = exports![name];
      if (isPlugin(plugin)) plugins.push({ plugin, file: entry.file });
      else failures.push({ file: entry.file, line: 1, message: messages.build.missingExport(entry.file, name) });
    }
  }
  const routers: Array<Found<Controller>> = [];
  for (const entry of manifest.routers) {
    const exports = load(entry);
    for (const name of exports ? entry.classes : []) {
      const cls = take<Controller>(entry, exports!, name, isRouterClass);
      if (cls) routers.push({ cls, file: entry.file });
    }
  }
  const gateways: Array<Found<Gateway>> = [];
  for (const entry of manifest.gateways ?? []) {
    const exports = load(entry);
    for (const name of exports ? entry.classes : []) {
      const cls = take<Gateway>(entry, exports!, name, isGatewayClass);
      if (cls) gateways.push({ cls, file: entry.file });
    }
  }
  const docComments = docTable(dir, manifest.docComments);
  return { routers, gateways, models: [], services, middleware, plugins, failures, docComments, sourceTypes: typeTable(dir, manifest.sourceTypes) };
}

// The manifest lists files relative to the build; routes name the absolute path they were declared in.
function docTable(dir: string, byFile: BuildManifest['docComments']): DocCommentTable {
  return Object.fromEntries(Object.entries(byFile ?? {}).map(([file, classes]) => [join(dir, file), classes]));
}

// The same for the source types; without them the app has runtime metadata only (it never reads a source).
function typeTable(dir: string, table: BuildManifest['sourceTypes']): TypeTable | false {
  if (!table?.files) return false;
  return { files: Object.fromEntries(Object.entries(table.files).map(([file, methods]) => [join(dir, file), methods])), schemas: table.schemas ?? {} };
}

/** The build folder as the user reaches it from the current folder (`dist`), or its absolute path. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
}
