import FindMyWay from 'find-my-way';
import { TrellisError } from '../framework-error';
import { HTTP_METHODS, type HttpMethod } from '../core/types';
import { pathParams, pathShape, toRadixPath } from './path';

export interface Match<T> {
  route: T;
  params: Record<string, string | undefined>;
}

/** Any version of a path answers: what `answers` and the methods of a preflight count. */
export const ANY_VERSION: unique symbol = Symbol('any version');

/**
 * The version a request asks for: a name, `undefined` (none: only version-neutral routes answer), a value no route
 * declares (a symbol of the caller's), or {@link ANY_VERSION}.
 */
export type RequestedVersion = string | symbol | undefined;

interface Entry<T> {
  route: T;
  /** Its parameter names, when they differ from those of the path the tree was given first for this slot. */
  rename?: string[];
}

/** The routes of one method and path shape: the version-neutral one and the versioned ones (header versioning). */
interface Slot<T> {
  route: T | undefined;
  names: string[];
  neutral?: Entry<T>;
  versions?: Map<string, Entry<T>>;
}

/**
 * The app's routes in a radix tree (find-my-way, Fastify's router): static segments match before
 * parameters whatever the declaration order, and lookup cost does not grow with the number of routes.
 * Several versions of one method and path (header versioning) share a node; a route without versions costs
 * nothing more to find.
 */
export class RouteTable<T> {
  readonly #tree = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 2048 });
  readonly #labels = new Map<string, string>();
  readonly #slots = new Map<string, Slot<T>>();

  /** Adds a route; `label` (e.g. `TaskRouter.one`) names it in the duplicate-route error; `version` shares its path with other versions. */
  add(method: HttpMethod, path: string, route: T, label: string, version?: string): void {
    const shape = `${method} ${pathShape(path)}`;
    const key = version === undefined ? shape : `${shape} ${version}`;
    const existing = this.#labels.get(key);
    if (existing) throw new TrellisError('TRELLIS_ERR_DUPLICATE_ROUTE', `${method} ${path}${version === undefined ? '' : ` (version ${version})`}`, existing, label);
    this.#labels.set(key, label);
    const names = pathParams(path);
    let slot = this.#slots.get(shape);
    if (!slot) {
      slot = { route: undefined, names };
      this.#slots.set(shape, slot);
      this.#tree.on(method, toRadixPath(path), () => {}, slot);
    }
    const entry: Entry<T> = { route, ...(names.join('/') === slot.names.join('/') ? {} : { rename: names }) };
    if (version === undefined) slot.neutral = entry;
    else (slot.versions ??= new Map()).set(version, entry);
    // Only a slot of one neutral route is found without looking at versions.
    slot.route = slot.versions === undefined ? route : undefined;
  }

  /** The route for `method` at `path` and the `version` asked for: that version's, else the version-neutral one. */
  find(method: string, path: string, version?: RequestedVersion): Match<T> | undefined {
    const found = this.#tree.find(method as HttpMethod, path);
    if (!found) return undefined;
    const slot = found.store as Slot<T>;
    if (slot.route !== undefined) return { route: slot.route, params: found.params };
    const entry = pick(slot, version);
    if (!entry) return undefined;
    return { route: entry.route, params: entry.rename ? renamed(found.params, slot.names, entry.rename) : found.params };
  }

  /** Whether a route answers `method` at `path` in any version: GET routes answer HEAD, any route at `path` answers OPTIONS. */
  answers(method: string, path: string): boolean {
    if (this.find(method, path, ANY_VERSION) || (method === 'HEAD' && this.find('GET', path, ANY_VERSION))) return true;
    return method === 'OPTIONS' && this.allowed(path).length > 0;
  }

  /** Methods with a route at `path` in any version, for 405 and OPTIONS: with HEAD where GET is and OPTIONS always. */
  allowed(path: string): string[] {
    return this.allowedFor(path, ANY_VERSION);
  }

  /** {@link allowed} for one `version` (`undefined`: version-neutral routes only). */
  allowedFor(path: string, version: RequestedVersion): string[] {
    const methods = new Set<string>(HTTP_METHODS.filter((m) => this.find(m, path, version)));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  }
}

function pick<T>(slot: Slot<T>, version: RequestedVersion): Entry<T> | undefined {
  if (version === ANY_VERSION) return slot.neutral ?? slot.versions?.values().next().value;
  return (typeof version === 'string' ? slot.versions?.get(version) : undefined) ?? slot.neutral;
}

// The tree names the parameters after the first path of the node; another version's route may name them otherwise.
function renamed(params: Record<string, string | undefined>, from: string[], to: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  from.forEach((name, i) => (out[to[i]] = params[name]));
  return out;
}
