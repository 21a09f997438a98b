// What `@Cors` records and `cors()` takes: types only, a leaf the decorators' layer may name.

/** An allowed origin: exact (`https://app.example.com`), `'*'`, a pattern (`https://*.example.com`, `http://localhost:*`) or a RegExp. */
export type OriginRule = string | RegExp;

/**
 * What cross-origin requests an app (config.yaml `cors:`, `cors(options)`) or a router (`@Cors(options)`) allows.
 *
 * @example
 * ```ts
 * const options: CorsOptions = { origins: ['http://localhost:5173', 'https://*.example.com'], credentials: true, maxAge: 600 };
 * ```
 */
export interface CorsOptions {
  /** Exact origins (`https://app.example.com`), `'*'` (any, the default), patterns (`https://*.example.com`, `http://localhost:*`) or RegExps. */
  origins?: OriginRule | OriginRule[];
  /** Methods a preflight allows (`Access-Control-Allow-Methods`): GET, HEAD, POST, PUT, PATCH, DELETE by default. */
  methods?: string[];
  /** Request headers a preflight allows; absent, the ones the preflight asks for (`Access-Control-Request-Headers`) are allowed. */
  headers?: string[];
  /** Response headers the browser lets the page read (`Access-Control-Expose-Headers`). None by default. */
  exposeHeaders?: string[];
  /** Cookies and `Authorization` go with the requests (`Access-Control-Allow-Credentials: true`); never with origin `'*'`. */
  credentials?: boolean;
  /** Seconds a browser may cache a preflight's answer (`Access-Control-Max-Age`): 600 by default. */
  maxAge?: number;
}
