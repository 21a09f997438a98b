import FindMyWay from 'find-my-way';
import { TrellisError } from '../framework-error';
import { HTTP_METHODS, type HttpMethod } from '../core/types';
import { pathShape, toRadixPath } from './path';

export interface Match<T> {
  route: T;
  params: Record<string, string | undefined>;
}

/**
 * The app's routes in a radix tree (find-my-way, Fastify's router): static segments match before
 * parameters whatever the declaration order, and lookup cost does not grow with the number of routes.
 */
export class RouteTable<T> {
  readonly #tree = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 2048 });
  readonly #labels = new Map<string, string>();

  /** Adds a route; `label` (e.g. `TaskRouter.one`) names it in the duplicate-route error. */
  add(method: HttpMethod, path: string, route: T, label: string): void {
    const key = `${method} ${pathShape(path)}`;
    const existing = this.#labels.get(key);
    if (existing) throw new TrellisError('TRELLIS_ERR_DUPLICATE_ROUTE', `${method} ${path}`, existing, label);
    this.#labels.set(key, label);
    this.#tree.on(method, toRadixPath(path), () => {}, { route });
  }

  find(method: string, path: string): Match<T> | undefined {
    const found = this.#tree.find(method as HttpMethod, path);
    if (!found) return undefined;
    return { route: (found.store as { route: T }).route, params: found.params };
  }

  /** Whether a route answers `method` at `path`: GET routes answer HEAD, any route at `path` answers OPTIONS. */
  answers(method: string, path: string): boolean {
    if (this.find(method, path) || (method === 'HEAD' && this.find('GET', path))) return true;
    return method === 'OPTIONS' && this.allowed(path).length > 0;
  }

  /** Methods with a route at `path` (for 405 and OPTIONS), with HEAD where GET is and OPTIONS always. */
  allowed(path: string): string[] {
    const methods = new Set<string>(HTTP_METHODS.filter((m) => this.#tree.find(m, path)));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  }
}
