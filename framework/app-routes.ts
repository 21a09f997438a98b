import type { Class } from './core/types';
import { TrellisError } from './framework-error';
import type { Container } from './injection/container';
import { isMiddlewareClass, type MiddlewareLike } from './middleware';
import { Controller, isRouterClass, middlewareOf } from './router';
import { collectRoutes, type RouteRecord } from './routing/collect';
import { endpointRecord, type EndpointRoute } from './routing/endpoint';
import { RouteTable } from './routing/route-table';
import { compareVersions } from './versioning/version';

/**
 * An app's routes: the route table that matches requests, and the records in listing order (the default plug-ins'
 * kept last, whatever is added after them), with the router classes the app builds when it starts.
 */
export class AppRoutes {
  readonly table = new RouteTable<RouteRecord>();
  /** In inclusion order, the trailing ones last. */
  readonly records: RouteRecord[] = [];
  /** The router classes included (not instances): built, with injection, when the app starts. */
  readonly classes: Array<Class<Controller>> = [];
  /** URI versioning's prefix (`'v'`: `/v1/tasks`); undefined with header versioning, where versions share a path. */
  uriPrefix: string | undefined = 'v';
  #trailing = 0;
  #upgrades = 0;

  /**
   * Collects a router's routes and adds them to the table (a clash throws `TRELLIS_ERR_DUPLICATE_ROUTE` naming both
   * handlers); a class's constructor parameters are checked by `container` first. `builtIn` marks a plug-in's routes,
   * `trailing` keeps them after every route added later.
   */
  add(router: Controller | Class<Controller>, container: Container, { builtIn = false, trailing = false } = {}): RouteRecord[] {
    let records: RouteRecord[];
    if (router instanceof Controller) records = collectRoutes(router.constructor as Class<Controller>, router, this.uriPrefix);
    else if (isRouterClass(router)) {
      container.check([router as Class<Controller>], { whole: false });
      records = collectRoutes(router as Class<Controller>, undefined, this.uriPrefix);
    } else throw new TrellisError('TRELLIS_ERR_NOT_A_ROUTER', describe(router));
    if (builtIn) for (const record of records) record.builtIn = true;
    this.#place(records, trailing);
    if (!(router instanceof Controller)) this.classes.push(router as Class<Controller>);
    return records;
  }

  /** Adds a plug-in's function route (a WebSocket gateway's upgrade); a clash throws as `add`'s. */
  addEndpoint(endpoint: EndpointRoute, { trailing = false } = {}): RouteRecord {
    const record = endpointRecord(endpoint);
    this.#place([record], trailing);
    return record;
  }

  /** Whether a route taking upgrade requests answers `path` (a WebSocket gateway's). */
  takesUpgrade(path: string): boolean {
    return this.#upgrades > 0 && this.table.find('GET', path)?.route.upgrade === true;
  }

  #place(records: RouteRecord[], trailing: boolean): void {
    for (const record of records) this.table.add(record.method, record.path, record, record.label, this.uriPrefix === undefined ? record.version : undefined);
    for (const record of records) if (record.upgrade) this.#upgrades++;
    if (trailing) {
      this.records.push(...records);
      this.#trailing += records.length;
    } else this.records.splice(this.records.length - this.#trailing, 0, ...records);
  }

  /** Whether a route takes upgrade requests. */
  get upgrades(): boolean {
    return this.#upgrades > 0;
  }

  /** The API versions the routes declare, in order (`'2'` before `'10'`). */
  versions(): string[] {
    const names = new Set<string>();
    for (const route of this.records) if (route.version !== undefined) names.add(route.version);
    return [...names].sort(compareVersions);
  }

  /** Gives the routes of the routers just built their instance, behind the middleware their constructors added. */
  bind(built: ReadonlyMap<Class, unknown>): void {
    for (const route of this.records) {
      const instance = built.get(route.router) as Controller | undefined;
      if (route.instance || !instance) continue;
      route.instance = instance;
      route.middleware = [...middlewareOf(instance), ...route.middleware];
    }
  }

  /** The middleware classes the app builds: `global` ones and those of the routes, each once. */
  middlewareClasses(global: readonly MiddlewareLike[]): Class[] {
    const all = [...global, ...this.records.flatMap((route) => route.middleware)];
    return [...new Set(all.filter((like) => isMiddlewareClass(like)))] as Class[];
  }
}

function describe(value: unknown): string {
  return typeof value === 'function' ? value.name || 'anonymous class' : String(value);
}
