import { join } from 'node:path';
import type { Class, Controller, DocCommentTable, TypeTable } from '../framework/inspect';
import type { Middleware } from '../framework/index';
import { isMiddlewareClass, isRouterClass } from '../framework/inspect';
import type { Plugin } from '../framework/plugins';
import { isPlugin } from '../framework/inspect';
import { isGatewayClass, type Gateway } from '../framework/websocket';
import { describeLoadError } from './load-error';
import type { Problem } from './problem';
import { moduleName, sourceFiles } from './source-files';

/** A class found in a project file. */
export interface Found<T = unknown> {
  cls: Class<T>;
  /** Relative to the project, with `/`. */
  file: string;
}

/** A middleware file: its name for `config.yaml` and the middleware classes it exports. */
export interface FoundMiddleware {
  /** `timing` for `middleware/timing.ts`. */
  name: string;
  file: string;
  classes: Array<Class<Middleware>>;
  /** The class `config.yaml` means by `name`: the default export, else the only one. */
  main: Class<Middleware> | undefined;
}

/** A plug-in a module of `plugins/` exports. */
export interface FoundPlugin {
  plugin: Plugin;
  /** Relative to the project, with `/`. */
  file: string;
}

/** What a project's `services/`, `middleware/`, `plugins/` and `routers/` hold, as `trellis run` serves it. */
export interface Discovery {
  routers: Array<Found<Controller>>;
  /** The WebSocket gateway classes of `routers/` (`extends gateway(path)`); absent from a manifest written before them. */
  gateways?: Array<Found<Gateway>>;
  /** Other classes exported from `routers/` (DTOs, response models), for `doctor`. */
  models: Found[];
  services: Found[];
  middleware: FoundMiddleware[];
  /**
   * The plug-ins `plugins/` exports, by file path then export order: registered after the services, before the
   * routers. Absent from a manifest written before plug-ins (none is registered).
   */
  plugins?: FoundPlugin[];
  /** Files that threw while loading, in load order. */
  failures: Problem[];
  /** The routers' doc comments, precomputed by `trellis build`; undefined when the docs read the source files. */
  docComments?: DocCommentTable;
  /** The handlers' return types and statuses, precomputed by `trellis build` (`false`: none, never read); undefined when the app reads the source files. */
  sourceTypes?: TypeTable | false;
}

/**
 * Loads every source file of `services/`, `middleware/`, `plugins/` and `routers/` (in that order) and sorts their
 * exports: every class of `services/` is a service, every `Middleware` subclass of `middleware/` a middleware, every
 * plug-in object of `plugins/` a plug-in (a file that exports none is a failure: `export default auditLog()`, not
 * the factory), every `router(...)` subclass of `routers/` a router (except one that another discovered router
 * extends: that one is a base class).
 *
 * @example
 * ```ts
 * const { routers, services, middleware, plugins, failures } = discover('/home/me/demo');
 * ```
 */
export function discover(dir: string): Discovery {
  const failures: Problem[] = [];
  const load = (folder: string) => {
    const loaded: Array<{ file: string; exports: Record<string, unknown> }> = [];
    for (const file of sourceFiles(dir, folder)) {
      try {
        loaded.push({ file, exports: exportsOf(require(join(dir, file))) });
      } catch (error) {
        failures.push(describeLoadError(error, file, dir));
      }
    }
    return loaded;
  };

  const services: Found[] = [];
  for (const { file, exports } of load('services')) {
    for (const value of Object.values(exports)) if (isClass(value)) add(services, { cls: value, file });
  }

  const middleware: FoundMiddleware[] = [];
  for (const { file, exports } of load('middleware')) {
    const classes = unique(Object.values(exports).filter(isMiddlewareClass));
    if (!classes.length) continue;
    const byDefault = isMiddlewareClass(exports.default) ? exports.default : undefined;
    middleware.push({ name: moduleName(file, 'middleware'), file, classes, main: byDefault ?? (classes.length === 1 ? classes[0] : undefined) });
  }

  const plugins: FoundPlugin[] = [];
  for (const { file, exports } of load('plugins')) {
    const found = unique(Object.values(exports).filter(isPlugin));
    if (!found.length) failures.push({ file, line: 1, message: `${file} exports no plug-in (an object with a name and register(host)): export one, e.g. export default auditLog()`, code: 'TRELLIS_ERR_NOT_A_PLUGIN' });
    for (const plugin of found) plugins.push({ plugin, file });
  }

  const candidates: Array<Found<Controller>> = [];
  const gatewayCandidates: Array<Found<Gateway>> = [];
  const models: Found[] = [];
  for (const { file, exports } of load('routers')) {
    for (const value of Object.values(exports)) {
      if (isRouterClass(value)) add(candidates, { cls: value as Class<Controller>, file });
      else if (isGatewayClass(value)) add(gatewayCandidates, { cls: value, file });
      else if (isClass(value) && !isMiddlewareClass(value) && !(value.prototype instanceof Error)) add(models, { cls: value, file });
    }
  }
  const routers = candidates.filter(({ cls }) => !candidates.some((other) => other.cls.prototype instanceof cls));
  const gateways = gatewayCandidates.filter(({ cls }) => !gatewayCandidates.some((other) => other.cls.prototype instanceof cls));

  return { routers, gateways, models, services, middleware, plugins, failures };
}

/** A module's exports by name; a module that is itself a function (`module.exports = class ...`) is `default`. */
export function exportsOf(module: unknown): Record<string, unknown> {
  if (typeof module === 'function') return { default: module };
  return module !== null && typeof module === 'object' ? (module as Record<string, unknown>) : {};
}

function isClass(value: unknown): value is Class {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function add<T>(list: Array<Found<T>>, found: Found<T>): void {
  if (!list.some((item) => item.cls === found.cls)) list.push(found);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
