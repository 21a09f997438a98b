import type { Logger } from './core/logger';
import type { DocsOptions } from './docs';
import { positiveLimit } from './framework-error';
import type { HealthOptions } from './health';
import { defaultLogger } from './logger';
import type { MetricsOptions } from './metrics';
import type { DocCommentTable } from './openapi';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from './pipeline/body';
import { trustedIdHeader } from './request-id';
import type { TypeTable } from './source/types/table';
import type { UploadLimits } from './uploads/limits';
import { versioningSettings, type VersioningOptions, type VersioningSettings } from './versioning/options';

export interface AppOptions {
  /** `info.title` of the OpenAPI document. */
  title?: string;
  version?: string;
  description?: string;
  /** Largest request body read, in bytes (413 above it). 1 MiB by default. */
  bodyLimit?: number;
  /** Most keys one object of a JSON body may have (413 above it, before anything walks the body). 1,000 by default. */
  maxObjectKeys?: number;
  /** Most objects and arrays in one JSON body (413 above it, before it is parsed). 100,000 by default. */
  maxJsonContainers?: number;
  /**
   * Where unexpected errors (`{ err, reqId }`, with their stack) and `request.log` lines go: a pino logger, or
   * anything with its methods. By default `createLogger()`'s: JSON lines on stdout, pino-pretty on a terminal.
   */
  logger?: Logger;
  /**
   * The documentation pages (landing page, Swagger UI, ReDoc, `openapi.json`, `openapi.yaml`), served
   * under `/docs` by default; `{ path: '/api-docs' }` moves them, `false` turns them off. Sugar for
   * `app.register(docs(options))`, as `metrics`, `health` and `uploads` are for their plug-ins.
   */
  docs?: DocsOptions | false;
  /**
   * Prometheus metrics at `GET /metrics` (off by default): requests and their durations by route pattern, method
   * and status, and the process's CPU, memory, heap and event-loop lag. `true` turns them on, `{ path, buckets,
   * defaultMetrics }` sets them up (see {@link MetricsOptions}); `app.metrics` is the registry they are read from.
   */
  metrics?: MetricsOptions | boolean;
  /**
   * Multipart limits: `{ fileSize: 10 MiB, files: 10, fields: 100, fieldSize: 1 MiB, fieldsSize: 1 MiB }` by default
   * (413 above them); files over `memorySize` (1 MiB) go to temporary files.
   */
  uploads?: Partial<UploadLimits>;
  /**
   * The routers' doc comments, precomputed (see {@link DocCommentTable}): the docs then read them from this
   * table only, instead of parsing the routers' source files with TypeScript. `trellis build` passes its
   * manifest's table here, since a built app ships neither sources nor TypeScript.
   */
  docComments?: DocCommentTable;
  /**
   * What the handlers' TypeScript sources say (return types as response schemas, the statuses they answer), for
   * the OpenAPI document and response shaping. By default the app reads it once, when it starts (first request,
   * `listen()`, `start()` or `handler`), from its routes' source files with `typescript` and
   * `ts-json-schema-generator` (cached by file content; nothing when they are not installed). `trellis build`
   * passes its manifest's precomputed table here, since a built app has no TypeScript; `false` never reads sources.
   * A handler whose return type the table does not give, but TypeScript recorded (`design:returntype` `Promise`,
   * `Object`, `Array` or a class), refuses to start (`TRELLIS_ERR_RESPONSE_UNKNOWN`) unless its route declares
   * `response` or `shapeResponse: false`: its body is never sent whole unknowingly.
   *
   * @example
   * ```ts
   * const app = new BaseRouter({ sourceTypes: false });   // runtime metadata only
   * ```
   */
  sourceTypes?: TypeTable | false;
  /**
   * `/healthz` (liveness) and `/readyz` (readiness: 503 while starting, draining after SIGTERM, or while a
   * service's `healthCheck()` fails), out of the OpenAPI document. Off by default; on in `trellis` projects.
   */
  health?: HealthOptions | boolean;
  /**
   * The request header a request's id is taken from (when short and plain: up to 128 letters, digits and
   * `_.:@=+/-`), as Fastify's `requestIdHeader`: `'x-request-id'` behind a proxy or gateway that sets it (and
   * replaces what clients send). Off (`false`) by default: every request gets a new id, so a client cannot
   * choose the id its lines carry in the logs (another request's, say). The response's `X-Request-Id` is the id.
   *
   * @example
   * ```ts
   * const app = new BaseRouter({ requestIdHeader: 'x-request-id' });   // behind a gateway that sets it
   * ```
   */
  requestIdHeader?: string | false;
  /**
   * How clients name the API version of versioned routers (`router('/tasks', { version: '1' })`): in the URI
   * (`{ type: 'uri' }`, the default: `/v1/tasks`) or in a header (`{ type: 'header', header: 'x-api-version',
   * defaultVersion: '1' }`). `app.openapi({ version: '1' })` is one version's document; see docs/guide/versioning.md.
   *
   * @example
   * ```ts
   * const app = new BaseRouter({ versioning: { type: 'header', defaultVersion: 'latest' } });
   * ```
   */
  versioning?: VersioningOptions;
}

export type { RequestListener } from './core/listener';

/** What an app is given, defaults applied and checked: its facts and the limits every request gets. */
export interface AppSettings {
  title: string;
  version: string;
  description: string | undefined;
  bodyLimit: number;
  jsonLimits: Readonly<JsonLimits>;
  logger: Logger;
  requestIdHeader: string | undefined;
  versioning: VersioningSettings;
}

/** {@link AppOptions}' own settings (the plug-ins' keys aside), with defaults; a limit that is not positive throws. */
export function appSettings(options: AppOptions): AppSettings {
  return {
    title: options.title ?? 'trellis API',
    version: options.version ?? '0.1.0',
    description: options.description,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    jsonLimits: Object.freeze({
      maxObjectKeys: positiveLimit('maxObjectKeys', options.maxObjectKeys ?? DEFAULT_JSON_LIMITS.maxObjectKeys),
      maxJsonContainers: positiveLimit('maxJsonContainers', options.maxJsonContainers ?? DEFAULT_JSON_LIMITS.maxJsonContainers),
    }),
    logger: options.logger ?? defaultLogger(),
    requestIdHeader: trustedIdHeader(options.requestIdHeader),
    versioning: versioningSettings(options.versioning),
  };
}
