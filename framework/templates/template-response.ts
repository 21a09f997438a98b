import { TrellisError } from '../framework-error';
import type { Request } from '../request';
import { CONTEXT } from '../symbols';
import { HTMLResponse, type ResponseInit } from '../response';
import type { TemplateRenderer } from '../core/template-renderer';

/**
 * An `HTMLResponse` whose body is a template, rendered by the app (with the environment of
 * `app.templates(dir)`) as soon as the handler returns, so middleware sees the HTML.
 *
 * @example
 * ```ts
 * const page = new TemplateResponse('task.html', { task });   // page.template === 'task.html'
 * page.headers.set('cache-control', 'no-store');
 * return page;
 * ```
 */
export class TemplateResponse extends HTMLResponse {
  #rendered = false;

  constructor(
    /** The template's name, relative to the templates directory. */
    readonly template: string,
    /** The values the template sees. */
    readonly context: Record<string, unknown> = {},
    init: ResponseInit = {},
  ) {
    super('', init);
  }

  get rendered(): boolean {
    return this.#rendered;
  }

  /** Renders the template with the app's engine when the pipeline settles the response. */
  override prepare(request: Request): void {
    this.renderWith(request[CONTEXT].templates);
  }

  /** Fills `body` from the template; a second call does nothing. */
  renderWith(engine: TemplateRenderer | undefined): this {
    if (this.#rendered) return this;
    if (!engine) throw new TrellisError('TRELLIS_ERR_NO_TEMPLATES', JSON.stringify(this.template));
    this.body = engine.render(this.template, this.context);
    this.#rendered = true;
    return this;
  }
}

/**
 * Renders a template from the app's templates directory (`app.templates(dir)`) into an HTML response.
 * Values are autoescaped. A missing template is a 500 for the client and a log line naming it.
 *
 * @example
 * ```ts
 * app.templates('templates');
 * class Pages extends router('/') {
 *   @Get('/') home() { return render('index.html', { title: 'Tasks', tasks: this.tasks.all() }); }
 * }
 * ```
 */
export function render(name: string, context: Record<string, unknown> = {}, init: ResponseInit = {}): TemplateResponse {
  return new TemplateResponse(name, context, init);
}
