/**
 * Misuse of the framework (bad route, unknown dependency, ...) is reported at startup with a stable code.
 * Every code is listed here and documented in docs/errors.md.
 */
export const ERROR_CODES = {
  TRELLIS_ERR_DUPLICATE_ROUTE: 'Duplicate route %s: %s and %s declare the same method and path',
  TRELLIS_ERR_INVALID_PATH: 'Invalid path %s: %s',
  TRELLIS_ERR_NOT_A_ROUTER: '%s is not a router: declare it as `class X extends router(\'/base\')`',
  TRELLIS_ERR_UNKNOWN_DEPENDENCY: '%s needs %s (constructor parameter %s), which is not provided: call app.provide(%s)',
  TRELLIS_ERR_NO_PARAMTYPES:
    '%s takes %s constructor parameter(s) but TypeScript recorded no types for them: put @Injectable() above the class',
  TRELLIS_ERR_CIRCULAR_DEPENDENCY: 'Circular dependency: %s',
  TRELLIS_ERR_PARAM_TYPE: '%s: parameter %s has type %s, which cannot be read from a %s (use number, string, boolean or an array)',
  TRELLIS_ERR_PARAM_UNDECLARED: '%s: @Path(\'%s\') names no {%s} in the route path %s',
  TRELLIS_ERR_BODY_UNVALIDATED:
    '%s: the body class %s has no class-validator decorators, so every property would be stripped: decorate its fields (@IsString(), ...)',
  TRELLIS_ERR_INVALID_MIDDLEWARE: '%s is not a middleware: pass a Middleware subclass, an instance, or an Express (req, res, next) function',
  TRELLIS_ERR_INVALID_STATUS: 'Invalid status %s: a response status is an integer from 100 to 599',
  TRELLIS_ERR_BODY_LIMIT: 'Invalid %s %s: a positive integer is expected',
  TRELLIS_ERR_UPLOAD_LIMIT: 'Invalid upload limit %s: %s (limits are fileSize, files, fields, fieldSize, fieldsSize and memorySize, each a positive integer)',
  TRELLIS_ERR_BODY_WITH_FILE:
    '%s takes both @Body() and @UploadedFile(): a multipart body is not JSON; read its other fields with @Req() and request.form()',
  TRELLIS_ERR_STATIC_PREFIX: 'Invalid static prefix %s: it starts with / and has no parameters (e.g. /static)',
  TRELLIS_ERR_STATIC_DIR: 'Static directory %s does not exist or is not a directory',
  TRELLIS_ERR_FAVICON: 'Favicon file %s cannot be read',
  TRELLIS_ERR_TEMPLATES_DIR: 'Templates directory %s does not exist or is not a directory',
  TRELLIS_ERR_NO_TEMPLATES: 'render(%s) needs a templates directory: call app.templates(dir)',
  TRELLIS_ERR_TEMPLATE_NOT_FOUND: 'Template %s not found in %s',
  TRELLIS_ERR_TEMPLATE_RENDER: 'Template %s failed to render: %s',
  TRELLIS_ERR_APP_STARTED:
    'app.%s() after the app started serving: routers, services, middleware, exception handlers, static files, the favicon and templates are set up before listen() or the first request',
  TRELLIS_ERR_DOCS_PATH: 'Invalid docs path %s: it has only letters, digits and - _ . ~ between slashes (e.g. /docs)',
  TRELLIS_ERR_CONFIG_VALUE: '%s must be %s, got %s',
  TRELLIS_ERR_COOKIE:
    'Invalid cookie %s: %s (a name is printable ASCII without spaces, `;` or `=`; a value is encoded by the `encode` option, encodeURIComponent by default)',
  TRELLIS_ERR_EVENT_STREAM:
    'Invalid %s %s in a server-sent event stream: an event name or id has no line break (an id no NUL either), retry is an integer from 0, ping a number of milliseconds from 0',
  TRELLIS_ERR_SCHEMA_NAME_CLASH:
    'Two different classes named %s are used by the routes; the OpenAPI document names schemas by class name: rename one',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error in how the framework is used, with a stable `code` (e.g. `TRELLIS_ERR_DUPLICATE_ROUTE`). */
export class TrellisError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, ...args: unknown[]) {
    let i = 0;
    super(ERROR_CODES[code].replace(/%s/g, () => String(args[i++])));
    this.name = 'TrellisError';
    this.code = code;
  }
}

/** `value` when it is a positive integer, else a `TRELLIS_ERR_BODY_LIMIT` naming the option. */
export function positiveLimit(name: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new TrellisError('TRELLIS_ERR_BODY_LIMIT', name, JSON.stringify(value) ?? String(value));
}
