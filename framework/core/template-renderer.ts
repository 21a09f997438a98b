/**
 * What renders a `TemplateResponse`: the templates plug-in's engine, reached through the request's context. A
 * leaf, so the request names it without importing the templates feature.
 */
export interface TemplateRenderer {
  /** Absolute path of the templates directory. */
  readonly dir: string;
  /** Renders `name` (relative to `dir`) with `context`; a missing or failing template throws a TrellisError. */
  render(name: string, context: object): string;
}
