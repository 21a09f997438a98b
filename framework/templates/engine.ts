import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Environment } from 'nunjucks';
import type { TemplateRenderer } from '../core/template-renderer';
import { TrellisError } from '../framework-error';

export interface TemplateOptions {
  /** Extra filters: `{{ price | money }}`. */
  filters?: Record<string, (...args: any[]) => unknown>;
  /** Values every template sees. */
  globals?: Record<string, unknown>;
}

/**
 * A nunjucks environment over one directory, configured once: autoescaping on (so `<`, `>`, `&`, `"` and
 * `'` in values are escaped; mark trusted HTML with `| safe`), compiled templates cached after first use.
 */
export class TemplateEngine implements TemplateRenderer {
  /** Absolute path of the templates directory. */
  readonly dir: string;
  readonly #options: TemplateOptions;
  #env: Environment | undefined;

  constructor(dir: string, options: TemplateOptions = {}) {
    this.dir = resolve(dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(this.dir).isDirectory();
    } catch {}
    if (!isDirectory) throw new TrellisError('TRELLIS_ERR_TEMPLATES_DIR', dir);
    this.#options = options;
  }

  /** Renders `name` (relative to the directory) with `context`; a missing or failing template throws a TrellisError. */
  render(name: string, context: object): string {
    // nunjucks' own check is a string prefix test (`/app/templates-old` passes for `/app/templates`).
    if (!resolve(this.dir, name).startsWith(this.dir + sep)) {
      throw new TrellisError('TRELLIS_ERR_TEMPLATE_NOT_FOUND', JSON.stringify(name), this.dir);
    }
    try {
      return this.#environment().render(name, context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message === `template not found: ${name}`) {
        throw new TrellisError('TRELLIS_ERR_TEMPLATE_NOT_FOUND', JSON.stringify(name), this.dir);
      }
      throw new TrellisError('TRELLIS_ERR_TEMPLATE_RENDER', JSON.stringify(name), message.replace(/\s+/g, ' '));
    }
  }

  // nunjucks is loaded by the first render: an app that renders nothing yet does not pay for it at startup.
  #environment(): Environment {
    if (this.#env) return this.#env;
    const nunjucks = require('nunjucks') as typeof import('nunjucks');
    const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(this.dir), { autoescape: true });
    for (const [name, filter] of Object.entries(this.#options.filters ?? {})) env.addFilter(name, filter);
    for (const [name, value] of Object.entries(this.#options.globals ?? {})) env.addGlobal(name, value);
    return (this.#env = env);
  }
}
