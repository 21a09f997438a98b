/** The framework's settings in `config.yaml`, defaults applied. */
export interface ProjectSettings {
  app: { title: string; version: string; description: string | undefined };
  server: {
    host: string;
    port: number;
    body_limit: number;
    max_object_keys: number;
    max_json_containers: number;
    headers_timeout: number;
    request_timeout: number;
    body_timeout: number;
    send_timeout: number;
    max_connections: number;
    access_log: boolean;
    shutdown_delay: number;
    request_id_header: string | false;
  };
  static: { dir: string; url: string };
  templates: { dir: string };
  docs: { enabled: boolean; path: string };
  health: { enabled: boolean; path: string; ready_path: string; check_interval: number };
  /** Prometheus metrics (`AppOptions.metrics`): off by default. */
  metrics: { enabled: boolean; path: string };
  /** Global middleware, by file name in `middleware/` (`timing` for `middleware/timing.ts`). */
  middleware: string[];
  /** The project's database (`trellis/database`): present only when config.yaml has a `database:` section. */
  database?: DatabaseSettings;
  /** How clients name API versions (`AppOptions.versioning`): present only when config.yaml has a `versioning:` section. */
  versioning?: { type: 'uri' | 'header'; header: string; prefix: string; default_version: string | undefined };
}

/** config.yaml's `database:` section, defaults applied. */
export interface DatabaseSettings {
  /** `postgres://...`: a PostgreSQL server; empty: the embedded database in `data_dir`. */
  url: string;
  /** Connections per process (each `--workers` worker has its own pool). */
  pool: number;
  /** The embedded database's folder, relative to the project (or absolute). */
  data_dir: string;
}

/** Returns what is wrong with a value (`"must be a string"`), or nothing. */
export type Check = (value: unknown) => string | undefined;

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : JSON.stringify(value);

const text: Check = (value) => {
  if (typeof value === 'string') return undefined;
  const hint = typeof value === 'number' ? ' (put it in quotes)' : '';
  return `must be a string, got ${describe(value)}${hint}`;
};
const nonEmpty: Check = (value) => text(value) ?? (String(value).trim() === '' ? 'must not be empty' : undefined);
const optionalText: Check = (value) => (value === null ? undefined : text(value));
const boolean: Check = (value) => (typeof value === 'boolean' ? undefined : `must be true or false, got ${describe(value)}`);
const port: Check = (value) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535
    ? undefined
    : `must be an integer from 0 to 65535, got ${describe(value)}`;
const positive: Check = (value) =>
  Number.isSafeInteger(value) && (value as number) > 0 ? undefined : `must be a positive whole number, got ${describe(value)}`;
const whole: Check = (value) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : `must be a whole number from 0, got ${describe(value)}`;
const headerOrFalse: Check = (value) =>
  value === false || (typeof value === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value))
    ? undefined
    : `must be false or a header name (like x-request-id), got ${describe(value)}`;
const host: Check = (value) =>
  nonEmpty(value) ?? (/^[A-Za-z0-9.:_-]+$/.test(value as string) ? undefined : `is not a host name or address: ${describe(value)}`);
const urlPath: Check = (value) =>
  nonEmpty(value) ??
  (/^\/[A-Za-z0-9._~\-/]*$/.test(value as string) ? undefined : `must be a URL path starting with /, got ${describe(value)}`);

/** A middleware name: a path under `middleware/` without extension, never leaving the folder. */
export const middlewareName: Check = (value) =>
  nonEmpty(value) ??
  (/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(value as string)
    ? undefined
    : `must be a file name in middleware/ without extension (like timing), got ${describe(value)}`);

// Never echoes the value: a URL may hold a password.
const databaseUrl: Check = (value) => {
  if (value === null || value === '') return undefined;
  if (typeof value !== 'string') return `must be a postgres:// URL or empty (the embedded database), got ${describe(value)}`;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1];
  if (scheme === 'postgres' || scheme === 'postgresql') return URL.canParse(value) ? undefined : 'is not a valid URL (postgres://user:password@host:5432/name)';
  return `must be a postgres:// URL or empty (the embedded database), got ${scheme ? `a ${scheme}: URL` : 'something else'}`;
};

const versioningType: Check = (value) => (value === 'uri' || value === 'header' ? undefined : `must be uri or header, got ${describe(value)}`);
const versionPrefix: Check = (value) =>
  text(value) ?? (/^[A-Za-z._~-]{0,16}$/.test(value as string) ? undefined : `must be up to 16 letters or ._~- (like v), got ${describe(value)}`);
const versionHeader: Check = (value) =>
  typeof value === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value) ? undefined : `must be a header name (like x-api-version), got ${describe(value)}`;
const versionName: Check = (value) =>
  value === null
    ? undefined
    : (text(value) ?? (/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/.test(value as string) ? undefined : `must be a version name (like 1 or 2024-06-01) or latest, got ${describe(value)}`));

interface Field {
  check: Check;
  default: unknown;
}

/** Every framework section and its fields; anything else at the top level is the project's own. */
export const SCHEMA: Record<Exclude<keyof ProjectSettings, 'middleware'>, Record<string, Field>> = {
  app: {
    title: { check: nonEmpty, default: 'trellis API' },
    version: { check: nonEmpty, default: '0.1.0' },
    description: { check: optionalText, default: undefined },
  },
  server: {
    host: { check: host, default: 'localhost' },
    port: { check: port, default: 8000 },
    /** Largest JSON body, in bytes (413 above it). */
    body_limit: { check: positive, default: 1024 * 1024 },
    /** Most keys in one object of a JSON body (413 above it): work on a body stays linear in its size. */
    max_object_keys: { check: positive, default: 1_000 },
    /** Most objects and arrays in one JSON body (413 above it): parsing costs per value created. */
    max_json_containers: { check: positive, default: 100_000 },
    /** Milliseconds to receive a request's headers (slowloris sockets are closed). */
    headers_timeout: { check: positive, default: 30_000 },
    /** Milliseconds to receive a whole request (408 after). */
    request_timeout: { check: positive, default: 120_000 },
    // The next three are framework/server.ts's LISTEN_DEFAULTS, written out: the CLI starts without loading the
    // framework (cli/tests/server-config.test.ts checks they agree).
    /** Milliseconds a request body may send nothing before a 408 (a stalled upload), as nginx's client_body_timeout. */
    body_timeout: { check: positive, default: 30_000 },
    /** Milliseconds a response may move no byte (a client that stopped reading) before the socket is destroyed. */
    send_timeout: { check: positive, default: 30_000 },
    /** Most open connections per process; further ones are closed as they arrive. */
    max_connections: { check: positive, default: 1_000 },
    /** One JSON line per request on stdout (`trellis run --no-access-log` turns it off for one run). */
    access_log: { check: boolean, default: true },
    /**
     * Milliseconds between SIGTERM and closing the port, while /readyz answers 503 and requests are still
     * taken: the time a load balancer needs to notice (a few seconds behind Kubernetes). 0 by default.
     */
    shutdown_delay: { check: whole, default: 0 },
    /**
     * The request header request ids are taken from (`AppOptions.requestIdHeader`): set it (x-request-id) only
     * behind a proxy that sets it. false by default: every request gets a new id.
     */
    request_id_header: { check: headerOrFalse, default: false },
  },
  static: {
    dir: { check: nonEmpty, default: 'static' },
    url: { check: urlPath, default: '/static' },
  },
  templates: {
    dir: { check: nonEmpty, default: 'templates' },
  },
  docs: {
    enabled: { check: boolean, default: true },
    path: { check: urlPath, default: '/docs' },
  },
  /** Liveness (`path`) and readiness (`ready_path`: 503 while starting, draining or a healthCheck() fails). */
  health: {
    enabled: { check: boolean, default: true },
    path: { check: urlPath, default: '/healthz' },
    ready_path: { check: urlPath, default: '/readyz' },
    /** Milliseconds /readyz reuses the last run of the healthCheck()s (one run at a time); 0 runs them per request. */
    check_interval: { check: whole, default: 1_000 },
  },
  metrics: {
    enabled: { check: boolean, default: false },
    path: { check: urlPath, default: '/metrics' },
  },
  /** The database (an {@link OPTIONAL_SECTIONS} one): PostgreSQL at `url`, else the embedded one in `data_dir`. */
  database: {
    url: { check: databaseUrl, default: '' },
    pool: { check: positive, default: 10 },
    data_dir: { check: nonEmpty, default: 'data/db' },
  },
  /** API versioning (an {@link OPTIONAL_SECTIONS} one): `/v1/tasks` (uri) or a header naming the version. */
  versioning: {
    type: { check: versioningType, default: 'uri' },
    header: { check: versionHeader, default: 'x-api-version' },
    prefix: { check: versionPrefix, default: 'v' },
    /** The version a request without the header gets (type header): a version name or latest; none: a 400. */
    default_version: { check: versionName, default: undefined },
  },
};

/** Sections that are there only when config.yaml has them (no defaults filled in without): what they turn on is opt-in. */
export const OPTIONAL_SECTIONS: ReadonlySet<string> = new Set(['database', 'versioning']);

export const SECTIONS = [...Object.keys(SCHEMA), 'middleware'];

/**
 * The sections of the built-in features that runtime/features.ts registers as plug-ins, each checked by its
 * plug-in's settings class: written alone (`compression:`), a section turns its feature on with the defaults.
 */
export const FEATURE_SECTIONS: ReadonlySet<string> = new Set(['cors', 'compression', 'rate_limit', 'etag', 'websockets', 'redis']);

/**
 * What is wrong with a port (an integer from 0 to 65535), or undefined: the rule of `--port`, `PORT` and
 * `server.port`.
 *
 * @example
 * ```ts
 * portCheck(70000); // 'must be an integer from 0 to 65535, got 70000'
 * ```
 */
export const portCheck: Check = port;

/**
 * What is wrong with a host name or address, or undefined: the rule of `--host`, `HOST` and `server.host`.
 *
 * @example
 * ```ts
 * hostCheck('0.0.0.0'); // undefined
 * ```
 */
export const hostCheck: Check = host;
