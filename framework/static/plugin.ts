import type { Plugin, PluginHost } from '../plugin/plugin';
import { faviconRouter } from './favicon';
import { staticMount, staticRouter, type StaticMount } from './mount';

/**
 * The files of a directory as a plug-in, named `static {prefix}` (one per prefix): `GET {prefix}/*` with ETag,
 * Range and HEAD, out of the OpenAPI document. Dotfiles, `..` and encoded separators, and symlinks leading out of
 * the directory are a JSON 404; the directory must exist now. Routers' own routes win over it.
 * `app.mountStatic(prefix, dir)` registers it for you.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { staticFiles } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(staticFiles('/static', 'static'));   // GET /static/css/app.css
 * ```
 */
export class StaticFiles implements Plugin {
  readonly name: string;
  /** The URL prefix and the absolute real path of the directory. */
  readonly mount: StaticMount;

  constructor(prefix: string, dir: string) {
    this.mount = staticMount(prefix, dir);
    this.name = `static ${this.mount.prefix}`;
  }

  register(host: PluginHost): void {
    host.route(staticRouter(this.mount));
  }
}

/**
 * The static files plug-in (see {@link StaticFiles}).
 *
 * @example
 * ```ts
 * app.register(staticFiles('/assets', 'public'));
 * ```
 */
export function staticFiles(prefix: string, dir: string): StaticFiles {
  return new StaticFiles(prefix, dir);
}

/**
 * `GET /favicon.ico` serving `file` (read now; it must exist) as a plug-in: `image/x-icon` (or the type of a
 * .png/.svg/.gif file), an ETag and a day of caching, out of the OpenAPI document. `app.favicon(file)` registers it.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { favicon } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(favicon('favicon.ico'));
 * ```
 */
export function favicon(file: string): Plugin {
  const router = faviconRouter(file);
  return { name: 'favicon', register: (host) => host.route(router) };
}
