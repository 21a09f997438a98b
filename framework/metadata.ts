import 'reflect-metadata';
import type { ValueConstraints } from './core/value-constraints';
import type { MiddlewareLike } from './middleware';
import { frameLocation } from './source/stack';
import type { HttpMethod, ScalarType, Class, SourceLocation } from './core/types';

export { HTTP_METHODS } from './core/types';
export type { HttpMethod, ScalarType, Class, SourceLocation } from './core/types';

/** Options of a route decorator; the documentation fields are read by the OpenAPI generator. */
export interface RouteOptions {
  /** Status of a plain (non-tuple) return value; 200 by default, 204 for `undefined`. */
  status?: number;
  summary?: string;
  description?: string;
  /**
   * The response model of the success status: documented, and the shape of what is sent (properties its
   * class-validator rules do not declare are left out, nested classes and arrays included; see `shapeResponse`).
   */
  response?: Class | [Class];
  /** Other statuses the handler may answer with (a tuple `[body, 404]`), and their models: documented, and shaped likewise. */
  responses?: Record<number, Class | [Class] | string>;
  /**
   * Whether JSON bodies are sent in their declared shape (`true` by default), as FastAPI's `response_model`: with a
   * `response` (or `responses`) class, or a return type read from the source (`Promise<User>`), only the declared
   * properties are sent, nested objects and arrays included, so a stored `passwordHash` the type leaves out never
   * is; `Record<string, T>` (or `additionalProperties`) keeps its keys, a union sends the first branch the value
   * fits, a `Date` goes out as an ISO string, `null` as `null`. The shape applies to a returned value and to a
   * tuple `[body, status]` whose status has one; a `Response` you build (`new JSONResponse(...)`) is sent as given.
   * A body that does not fit (a required property missing, a value of another type, which is never coerced) is a
   * 500 `{"error":"Internal Server Error"}` logged as `TRELLIS_ERR_RESPONSE_SHAPE`, nothing of it sent. `false`
   * sends bodies as `JSON.stringify` makes them; the document is unchanged.
   *
   * @example
   * ```ts
   * @Get('/{id}', { response: UserOut }) one(...) { return this.users.get(id); }   // no passwordHash sent
   * @Get('/raw', { shapeResponse: false }) raw(): User { return this.users.raw(); } // sent whole
   * ```
   */
  shapeResponse?: boolean;
  tags?: string[];
  deprecated?: boolean;
  /**
   * `false` leaves the route out of the OpenAPI document (it is still served, listed in `app.routes` and in
   * `trellis doctor`'s table): the docs pages and static files are such routes.
   */
  includeInSchema?: boolean;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** The sub-path as written in the decorator, `''` when none. */
  path: string;
  handler: string | symbol;
  options: RouteOptions;
  /** Where the decorator was written (`file`, 1-based `line`), for doc comments and `trellis doctor`. */
  source?: SourceLocation;
}

/**
 * The file and line of the code that called the decorator factory, read from the stack once at class
 * definition (with source maps on, the TypeScript file). The file is what counts: the line is where the
 * compiled decorator call is, often the end of the class; `declarationOf` finds the method's own line.
 */
export function callerLocation(depth: number): SourceLocation | undefined {
  return frameLocation(new Error().stack?.split('\n')[depth + 2] ?? '');
}

export type ParamKind = 'path' | 'query' | 'header' | 'body' | 'request' | 'file' | 'dependency';

export interface ParamDefinition {
  kind: ParamKind;
  index: number;
  /** Path/query/header/file name; absent for body and request. */
  name?: string;
  /** Declared type, overriding `design:paramtypes`: a scalar name, a constructor or `[Item]` for arrays. */
  type?: ScalarType | Class | [Class | ScalarType];
  /** `undefined` (key absent) = required; anything else, `null` included, = optional with that default. */
  default?: unknown;
  hasDefault: boolean;
  description?: string;
  /** `@Body({ maxItems })`: the most elements of an array body (413 above it). */
  maxItems?: number;
  /** `minimum`, `pattern`, ... of a path, query or header value, checked against its type when the decorator ran. */
  constraints?: ValueConstraints;
  /** `@UploadedFile(name, { required: true })`: a request without the file is a 400 before the handler runs. */
  required?: boolean;
  /** `@Depends(token)`: what the container gives (a class, an InjectionToken, a string or a symbol); the declared class when absent. */
  token?: unknown;
}

/** What a settings class (`@Settings('admin')`) reads from the config, and how strictly. */
export interface SettingsDefinition {
  /** The dotted path of its section (`admin`, `services.mail`). */
  section: string;
  /** `'forbid'` (the default): a key the class does not declare is a problem; `'ignore'`: it is left out. */
  unknownKeys: 'forbid' | 'ignore';
}

interface ClassMetadata {
  basePath?: string;
  routes: RouteDefinition[];
  params: Map<string | symbol, ParamDefinition[]>;
  /** `@Use(...)` on the class: middleware around each of its routes, after the router's own. */
  middleware: MiddlewareLike[];
  /** `@Use(...)` on a handler: middleware around that route only, after the class's. */
  routeMiddleware: Map<string | symbol, MiddlewareLike[]>;
  /** `@Settings(section)`: the class is a config section (not inherited). */
  settings?: SettingsDefinition;
  /** `@Scopes(...)` on the class: scopes each of its routes needs. */
  scopes: string[];
  /** `@Scopes(...)` on a handler: scopes that route needs, besides the class's. */
  routeScopes: Map<string | symbol, string[]>;
}

// Metadata lives with each class, never on `global`: two apps in one process only see what they include.
const store = new WeakMap<object, ClassMetadata>();

export function metadataOf(target: object): ClassMetadata {
  let metadata = store.get(target);
  if (!metadata) {
    metadata = { routes: [], params: new Map(), middleware: [], routeMiddleware: new Map(), scopes: [], routeScopes: new Map() };
    store.set(target, metadata);
  }
  return metadata;
}

/** The metadata of `ctor` and its ancestors, nearest class first. */
export function metadataChain(ctor: Function): ClassMetadata[] {
  const chain: ClassMetadata[] = [];
  for (let c: Function | null = ctor; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const metadata = store.get(c);
    if (metadata) chain.push(metadata);
  }
  return chain;
}

/** The `@Settings` definition `cls` itself carries (a subclass does not inherit it). */
export function settingsDefinitionOf(cls: Function): SettingsDefinition | undefined {
  return store.get(cls)?.settings;
}
