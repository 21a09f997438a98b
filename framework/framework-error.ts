/**
 * Misuse of the framework (bad route, unknown dependency, ...) is reported at startup with a stable code.
 * Every code is listed here and documented in docs/reference/errors.md. Each `%{name}` of a message is a value the
 * error also carries in `details` under that name: tools read facts there, never out of the message.
 */
export const ERROR_CODES = {
  TRELLIS_ERR_DUPLICATE_ROUTE: 'Duplicate route %{route}: %{existing} and %{handler} declare the same method and path',
  TRELLIS_ERR_INVALID_PATH: 'Invalid path %{path}: %{reason}',
  TRELLIS_ERR_NOT_A_ROUTER: '%{value} is not a router: declare it as `class X extends router(\'/base\')`',
  TRELLIS_ERR_UNKNOWN_DEPENDENCY:
    '%{consumer} needs %{dependency} (constructor parameter %{parameter}, %{name}), which is not provided: call app.provide(%{dependency})',
  TRELLIS_ERR_UNINJECTABLE_PARAMETER:
    '%{consumer} constructor parameter %{parameter} (%{name}) %{reason}, which cannot be injected by type: give it a class type, or name what it receives with @Inject(TOKEN) and app.provide({ provide: TOKEN, useValue | useFactory | useClass })',
  TRELLIS_ERR_UNKNOWN_TOKEN:
    '%{consumer} asks for %{token} (constructor parameter %{parameter}, %{name}), which is not provided: call app.provide({ provide: %{token}, useValue | useFactory | useClass })',
  TRELLIS_ERR_INVALID_PROVIDER: 'Invalid provider for %{token}: %{reason}',
  TRELLIS_ERR_STARTUP_FAILED: '%{step} failed: %{reason}',
  TRELLIS_ERR_REQUEST_ID_HEADER: 'Invalid requestIdHeader %{value}: give a header name such as x-request-id, or false',
  TRELLIS_ERR_HEALTH_OPTION: 'Invalid health option %{option}: %{value} (paths are plain segments like /healthz, two different ones; timeout a positive number of ms, checkInterval a whole number of ms from 0)',
  TRELLIS_ERR_NO_PARAMTYPES:
    '%{consumer} takes %{count} constructor parameter(s) but TypeScript recorded no types for them: put @Injectable() above the class',
  TRELLIS_ERR_CIRCULAR_DEPENDENCY: 'Circular dependency: %{cycle}',
  TRELLIS_ERR_SCOPE_WIDENING:
    '%{consumer} lives for the whole app but depends on %{dependency}, which lives for one request (%{path}): it would keep the first request\'s value for all of them. Take %{dependency} in a handler with @Depends(), or make %{consumer} request-scoped with @Injectable({ scope: \'request\' }) (routers and middleware are always built once)',
  TRELLIS_ERR_DEPENDENCY_PARAM:
    '%{consumer} constructor parameter %{parameter} is %{decorator}, which a request-scoped provider cannot take: it takes @Header, @Query, @Path and @Req values, services and the Request; read bodies and files in the handler',
  TRELLIS_ERR_OVERRIDE_INVALID: 'Cannot override %{token}: %{reason}',
  TRELLIS_ERR_PARAM_TYPE:
    '%{handler}: parameter %{parameter} has type %{type}, which cannot be read from a %{location} (use number, string, boolean or an array; a class of query or header values is @Query() or @Header() without a name)',
  TRELLIS_ERR_PARAM_CONSTRAINT: '%{handler}: %{location} parameter %{parameter} has an invalid %{option}: %{reason}',
  TRELLIS_ERR_PARAM_UNDECLARED: '%{handler}: @Path(\'%{parameter}\') names no {%{parameter}} in the route path %{path}',
  TRELLIS_ERR_BODY_UNVALIDATED:
    '%{handler}: the body class %{model} has no class-validator decorators, so every property would be stripped: decorate its fields (@IsString(), ...)',
  TRELLIS_ERR_PARAM_CLASS:
    '%{handler}: @%{decorator}() without a name binds a class of values, and parameter %{parameter} is declared %{type}: name one value (@%{decorator}(\'name\')) or declare a class with class-validator rules',
  TRELLIS_ERR_PARAM_CLASS_UNVALIDATED:
    '%{handler}: the %{location} class %{model} has no class-validator decorators, so no value would be read: decorate its fields (@IsInt(), @IsOptional(), ...)',
  TRELLIS_ERR_PARAM_CLASS_PROPERTY: '%{handler}: the %{location} class property %{property} %{reason}',
  TRELLIS_ERR_DTO_PROPERTY_NAME:
    '%{handler}: the DTO property %{property} cannot be named %{name} (a JSON body with a __proto__ key is refused; an own constructor hides the class from validation): name it otherwise',
  TRELLIS_ERR_INVALID_MIDDLEWARE: '%{value} is not a middleware: pass a Middleware subclass, an instance, or an Express (req, res, next) function',
  TRELLIS_ERR_INVALID_STATUS: 'Invalid status %{status}: a response status is an integer from 100 to 599',
  TRELLIS_ERR_BODY_LIMIT: 'Invalid %{option} %{value}: a positive integer is expected',
  TRELLIS_ERR_UPLOAD_LIMIT:
    'Invalid upload limit %{limit}: %{value} (limits are fileSize, files, fields, fieldSize, fieldsSize and memorySize, each a positive integer)',
  TRELLIS_ERR_BODY_WITH_FILE:
    '%{handler} takes both @Body() and @UploadedFile(): a multipart body is not JSON; read its other fields with @Req() and request.form()',
  TRELLIS_ERR_STATIC_PREFIX: 'Invalid static prefix %{prefix}: it starts with / and has no parameters (e.g. /static)',
  TRELLIS_ERR_STATIC_DIR: 'Static directory %{dir} does not exist or is not a directory',
  TRELLIS_ERR_FAVICON: 'Favicon file %{file} cannot be read',
  TRELLIS_ERR_COMPRESSION_OPTION:
    'Invalid compression option %{option}: %{value} (threshold a whole number of bytes from 0; encodings a non-empty list of br and gzip, each once; gzipLevel 1-9; brotliQuality 0-11)',
  TRELLIS_ERR_TEMPLATES_DIR: 'Templates directory %{dir} does not exist or is not a directory',
  TRELLIS_ERR_NO_TEMPLATES: 'render(%{template}) needs a templates directory: call app.templates(dir)',
  TRELLIS_ERR_TEMPLATE_NOT_FOUND: 'Template %{template} not found in %{dir}',
  TRELLIS_ERR_TEMPLATE_RENDER: 'Template %{template} failed to render: %{reason}',
  TRELLIS_ERR_APP_STARTED:
    'app.%{method}() after the app started serving: routers, services, middleware, exception handlers, plug-ins, static files, the favicon and templates are set up before listen() or the first request',
  TRELLIS_ERR_APP_NOT_STARTED: '%{value} is built when the app starts: use it from a startup hook, a request or a connection, not while the app is setting up',
  TRELLIS_ERR_NOT_A_PLUGIN: '%{value} is not a plug-in: give an object with a name and a register(host) method',
  TRELLIS_ERR_PLUGIN_DUPLICATE: 'A plug-in named %{plugin} is registered already: register each plug-in once (two instances of one need two names)',
  TRELLIS_ERR_PLUGIN_REGISTER: 'Plug-in %{plugin} failed to register: %{reason}',
  TRELLIS_ERR_DOCS_PATH: 'Invalid docs path %{path}: it has only letters, digits and - _ . ~ between slashes (e.g. /docs)',
  TRELLIS_ERR_METRICS_PATH: 'Invalid metrics path %{path}: it has only letters, digits and - _ . ~ between slashes (e.g. /metrics)',
  TRELLIS_ERR_METRICS_BUCKETS: 'Invalid metrics buckets %{buckets}: a list of increasing numbers of seconds above 0 (e.g. [0.01, 0.1, 1])',
  TRELLIS_ERR_CONFIG_VALUE: '%{path} must be %{expected}, got %{actual}',
  TRELLIS_ERR_CONFIG_SECTION: 'Config section %{section} does not fit %{settings}: %{problems}',
  TRELLIS_ERR_SETTINGS_UNVALIDATED:
    'The settings class %{settings} (config section %{section}) has no class-validator decorators, so no setting would be checked: decorate its fields (@IsString(), ...)',
  TRELLIS_ERR_COOKIE:
    'Invalid cookie %{name}: %{reason} (a name is printable ASCII without spaces, `;` or `=`; a value is encoded by the `encode` option, encodeURIComponent by default)',
  TRELLIS_ERR_EVENT_STREAM:
    'Invalid %{field} %{value} in a server-sent event stream: an event name or id has no line break (an id no NUL either), retry is an integer from 0, ping a number of milliseconds from 0',
  TRELLIS_ERR_RESPONSE_SCHEMA:
    '%{handler}: the declared response schema of status %{status} cannot be compiled (%{reason}); fix the type or class, or set shapeResponse: false',
  TRELLIS_ERR_RESPONSE_UNKNOWN:
    '%{handler}: the response of status %{status} is declared as %{declared}, whose properties cannot be known %{reason}; the app does not start rather than send whole bodies: %{remedy}, or set shapeResponse: false on the route to send them as JSON.stringify does',
  TRELLIS_ERR_RESPONSE_SHAPE:
    '%{handler} answered %{status} with a body that does not fit its declared response: %{reason} (the client got a 500)',
  TRELLIS_ERR_SCHEMA_NAME_CLASH:
    'Two different classes named %{name} are used by the routes; the OpenAPI document names schemas by class name: rename one',
  TRELLIS_ERR_SECURITY_SCHEME_CLASH:
    'Two different security schemes named %{schemeName} are declared by the middleware of the routes: give one another schemeName (bearerAuth({ schemeName }), apiKeyHeader(header, { schemeName }))',
  TRELLIS_ERR_SCOPE_NAME: 'Invalid scope %{scope} in @Scopes: a scope is printable ASCII without spaces, quotes or backslashes (e.g. tasks:write)',
  TRELLIS_ERR_SCOPES_UNGUARDED:
    '%{route} (%{handler}) needs scopes %{scopes} but no scope-aware guard covers it: put @Use(jwtAuth(...)) on the route or its router, or app.addMiddleware(jwtAuth(...))',
  TRELLIS_ERR_AUTH_OPTION: 'Invalid %{guard} option %{option}: %{reason}',
  TRELLIS_ERR_DATABASE_OPTION:
    'Invalid database option %{option}: %{value} (url is postgres://user:password@host:5432/db or empty, dataDir and migrations are folders, pool a positive integer, migrate latest, check or off)',
  TRELLIS_ERR_DATABASE_LOCKED:
    'The embedded database %{folder} is open in another process (pid %{pid}, lock file %{lockFile}): one process at a time opens it; set DATABASE_URL to a PostgreSQL server to run several processes',
  TRELLIS_ERR_DATABASE_UNREACHABLE: 'Cannot reach the database at %{address}: %{reason}',
  TRELLIS_ERR_MIGRATION_PENDING:
    'The database lacks migration %{migration} (%{count} pending): apply them before starting, with `trellis db migrate` (npm run db:migrate) or, in a production install, `node dist/main.js --migrate`',
  TRELLIS_ERR_MIGRATION_FAILED: 'Migration %{migration} failed: %{reason}',
  TRELLIS_ERR_GATEWAY: 'Invalid WebSocket gateway %{gateway}: %{reason}',
  TRELLIS_ERR_WEBSOCKET_OPTION: 'Invalid websockets option %{option}: %{value} (%{rule})',
  TRELLIS_ERR_REDIS_URL: 'Invalid Redis URL %{url}: give redis://[user:password@]host[:port][/db] or rediss://... (TLS)',
  TRELLIS_ERR_RATE_LIMIT_OPTION: 'Invalid rate limit option %{option}: %{reason}',
  TRELLIS_ERR_VERSION_NAME: '%{where}: invalid API version %{value} (%{reason})',
  TRELLIS_ERR_VERSIONING: 'Invalid versioning option %{option}: %{reason}',
  TRELLIS_ERR_CORS_OPTION: 'Invalid CORS option %{option}: %{reason}',
  TRELLIS_ERR_CORS_CREDENTIALS:
    '%{where}: credentials cannot go with origin \'*\' (a browser refuses the answer, and allowing every site with cookies would let any page act as the user): list the origins, or drop credentials',
  TRELLIS_ERR_ETAG_OPTION: 'Invalid etag setting %{value}: give true (ETags on every GET route\'s JSON answers) or false (only on routes marked @ETag())',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const PLACEHOLDER = /%\{(\w+)\}/g;

/**
 * The names of the values a code's message holds, in order, each once: the keys of its `details`.
 *
 * @example
 * ```ts
 * detailNames('TRELLIS_ERR_DUPLICATE_ROUTE'); // ['route', 'existing', 'handler']
 * ```
 */
export function detailNames(code: ErrorCode): string[] {
  return [...new Set(Array.from(ERROR_CODES[code].matchAll(PLACEHOLDER), (match) => match[1]))];
}

/**
 * An error in how the framework is used, with a stable `code` (e.g. `TRELLIS_ERR_DUPLICATE_ROUTE`) and the
 * values its message names in `details`. A handler is named by its route label (`TaskRouter.one`), under
 * `handler`: for a duplicate route, the handler of the router being included (the other one is `existing`).
 *
 * @example
 * ```ts
 * try {
 *   app.includeRouter(LegacyRouter);
 * } catch (error) {
 *   if (error instanceof TrellisError && error.code === 'TRELLIS_ERR_DUPLICATE_ROUTE') {
 *     console.log(error.details); // { route: 'GET /items', existing: 'ItemRouter.list', handler: 'LegacyRouter.oldList' }
 *   }
 * }
 * ```
 */
export class TrellisError extends Error {
  readonly code: ErrorCode;
  /** The values the message names, by name (see {@link ERROR_CODES}); what tools read instead of the message. */
  readonly details: Readonly<Record<string, unknown>>;

  /** `args` fill the message's placeholders in order, one per occurrence (a name written twice takes two). */
  constructor(code: ErrorCode, ...args: unknown[]) {
    const details: Record<string, unknown> = {};
    let i = 0;
    super(
      ERROR_CODES[code].replace(PLACEHOLDER, (_, name: string) => {
        const value = args[i++];
        if (!Object.hasOwn(details, name)) details[name] = value;
        return String(value);
      }),
    );
    this.name = 'TrellisError';
    this.code = code;
    this.details = Object.freeze(details);
  }
}

/** `value` when it is a positive integer, else a `TRELLIS_ERR_BODY_LIMIT` naming the option. */
export function positiveLimit(name: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new TrellisError('TRELLIS_ERR_BODY_LIMIT', name, JSON.stringify(value) ?? String(value));
}
