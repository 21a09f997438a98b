import type { Plugin, PluginHost } from '../plugin/plugin';
import { TemplateEngine, type TemplateOptions } from './engine';

/**
 * The directory `render(name, context)` reads templates from, as a plug-in (nunjucks, autoescaping on; compiled
 * on first use and cached). The directory must exist now. `app.templates(dir, options)` registers it for you.
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { templates } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(templates('templates', { filters: { upper: (s: string) => s.toUpperCase() } }));
 * ```
 */
export class Templates implements Plugin {
  readonly name = 'templates';
  readonly engine: TemplateEngine;

  constructor(dir: string, options: TemplateOptions = {}) {
    this.engine = new TemplateEngine(dir, options);
  }

  register(host: PluginHost): void {
    host.requestContext({ templates: this.engine });
  }
}

/**
 * The templates plug-in (see {@link Templates}).
 *
 * @example
 * ```ts
 * app.register(templates('views'));
 * ```
 */
export function templates(dir: string, options: TemplateOptions = {}): Templates {
  return new Templates(dir, options);
}
