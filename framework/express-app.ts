/** An Express handler or middleware, `(req, res, next)`, as `app.express` takes it (parameters typed `any`). */
export type ExpressHandler = (req: any, res: any, next: (error?: unknown) => void) => unknown;
/** An Express error handler, `(error, req, res, next)`. */
export type ExpressErrorHandler = (error: any, req: any, res: any, next: (error?: unknown) => void) => unknown;
type ExpressPath = string | RegExp | Array<string | RegExp>;

/**
 * The Express application behind `app.express`, typed loosely so trellis's types need no `@types/express`.
 * A project that installs `@types/express` gets Express's own types with a cast.
 *
 * @example
 * ```ts
 * app.express.get('/legacy', (req, res) => res.send('served by Express'));
 * app.express.use((error, req, res, next) => res.status(500).send('failed'));
 * const typed = app.express as unknown as import('express').Express; // with @types/express installed
 * ```
 */
export interface ExpressApp {
  // Error handlers first: a lambda's parameters take their types from the first overload tried.
  use(...handlers: ExpressErrorHandler[]): this;
  use(path: ExpressPath, ...handlers: ExpressErrorHandler[]): this;
  use(...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  use(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  /** A setting's value (`app.express.get('trust proxy')`). */
  get(setting: string): any;
  get(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  post(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  put(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  patch(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  delete(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  all(path: ExpressPath, ...handlers: Array<ExpressHandler | ExpressHandler[]>): this;
  set(setting: string, value: unknown): this;
  enable(setting: string): this;
  disable(setting: string): this;
  /** Everything else Express has (`engine`, `param`, `locals`, ...), untyped. */
  [member: string]: any;
}
