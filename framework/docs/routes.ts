import { Get } from '../decorators/route';
import { Path, Req } from '../decorators/parameter';
import type { Class } from '../core/types';
import { errorResponse } from '../error-envelope';
import type { OpenAPIDocument } from '../openapi';
import { Request } from '../request';
import { fixedBody, fixedResponse, type FixedBody } from '../responses/fixed';
import { router, type Controller } from '../router';
import { asset } from './assets';
import { recordDocsRouter } from './asyncapi-link';
import { mountBase } from './mount-base';
import { landingPage, redocPage, swaggerInit, swaggerPage, type PageInfo } from './pages';
import { ServedDocument } from './served-document';

/** What the docs need from the app. */
export interface DocsSource {
  title: string;
  version: string;
  description?: string;
  /** The (cached) OpenAPI document: the default one, or one API version's. */
  openapi(version?: string): OpenAPIDocument;
  /** The API versions of the routes, in order (`[]` without versioned routers): known once the app has started. */
  versions?(): readonly string[];
  /** Whether the app serves the AsyncAPI document of its WebSocket gateways at `{prefix}/asyncapi.json`: known once it has started. */
  asyncapi?(): boolean;
}

// The pages load only what the app serves. This also stops ReDoc's footer logo, which it takes from a CDN.
// `frame-ancestors 'self'`: another site cannot frame Swagger UI (whose "Try it out" sends real requests with
// the user's cookies) to trick clicks, while a page of the same origin (a portal next to the API) still can.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "worker-src 'self' blob:; font-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'self'; " +
    "frame-ancestors 'self'",
};

const HTML = 'text/html; charset=utf-8';
const SCRIPT = 'text/javascript; charset=utf-8';

const HIDDEN = { includeInSchema: false } as const;

/**
 * The docs pages as a router class mounted at `prefix` (`''` for the root): the landing page, Swagger UI,
 * ReDoc, `openapi.json`, `openapi.yaml` and the pages' assets, all left out of the OpenAPI document. With API
 * versions, `v{version}/openapi.json`, `.yaml` and `v{version}/redoc` are each version's, and the pages switch.
 * Mounted in Express (`expressApp.use('/api', app.handler)`), the links, the assets and the document's
 * `servers` carry Express's mount path. The document is built on the first request for it and each format
 * serialized once, whatever the mount path (see {@link ServedDocument}); a page is rendered once per mount path.
 */
export function docsRouter(prefix: string, source: DocsSource): Class<Controller> {
  // Pages are rendered on their first request, once the app has started: its versions are known then.
  let known: readonly string[] | undefined;
  let realtime: boolean | undefined;
  const versions = () => (known ??= source.versions?.() ?? []);
  const asyncapi = () => (realtime ??= source.asyncapi?.() ?? false);
  const page = (render: (info: PageInfo) => string, type = HTML) =>
    new MountCache((base) => fixedBody(render({ ...source, prefix: base + prefix, versions: versions(), asyncapi: asyncapi() }), type, type === HTML ? PAGE_HEADERS : undefined));
  const pages = { landing: page(landingPage), swagger: page(swaggerPage), redoc: page((info) => redocPage(info)), swaggerInit: page(swaggerInit, SCRIPT) };
  const document = new ServedDocument(() => source.openapi());
  // One entry per version the routes declare, made on its first request: bounded by what the app declares.
  const perVersion = new Map<string, { document: ServedDocument; redoc: MountCache<FixedBody> }>();
  const versioned = (version: string) => {
    if (!versions().includes(version)) return undefined;
    let entry = perVersion.get(version);
    if (!entry) {
      const redoc = page((info) => redocPage(info, version));
      perVersion.set(version, (entry = { document: new ServedDocument(() => source.openapi(version)), redoc }));
    }
    return entry;
  };

  class DocsRouter extends router(prefix || '/') {
    @Get('/', HIDDEN) landing(@Req() request: Request) {
      return fixedResponse(request, pages.landing.get(request));
    }

    @Get('/swagger', HIDDEN) swagger(@Req() request: Request) {
      return fixedResponse(request, pages.swagger.get(request));
    }

    @Get('/redoc', HIDDEN) redoc(@Req() request: Request) {
      return fixedResponse(request, pages.redoc.get(request));
    }

    @Get('/swagger-init.js', HIDDEN) swaggerInit(@Req() request: Request) {
      return fixedResponse(request, pages.swaggerInit.get(request));
    }

    @Get('/openapi.json', HIDDEN) json(@Req() request: Request) {
      return document.json(request);
    }

    @Get('/openapi.yaml', HIDDEN) yaml(@Req() request: Request) {
      return document.yaml(request);
    }

    @Get('/assets/{name}', HIDDEN) asset(@Req() request: Request, @Path('name') name: string) {
      const found = asset(name);
      return found ? fixedResponse(request, found) : errorResponse(404, 'Not Found');
    }

    // `/v1/openapi.json`, `/v1/openapi.yaml`, `/v1/redoc`: one API version's document and ReDoc page.
    @Get('/v{n}/{file}', HIDDEN) versioned(@Req() request: Request, @Path('n') version: string, @Path('file') file: string) {
      const entry = versioned(version);
      if (entry && file === 'openapi.json') return entry.document.json(request);
      if (entry && file === 'openapi.yaml') return entry.document.yaml(request);
      if (entry && file === 'redoc') return fixedResponse(request, entry.redoc.get(request));
      return errorResponse(404, 'Not Found');
    }
  }
  recordDocsRouter(DocsRouter, prefix);
  return DocsRouter;
}

/** Values per mount path ({@link mountBase}): past a few, values are computed per request instead of kept. */
class MountCache<T> {
  readonly #values = new Map<string, T>();

  constructor(readonly make: (base: string) => T) {}

  get(request: Request): T {
    const key = mountBase(request);
    let value = this.#values.get(key);
    if (value === undefined) {
      value = this.make(key);
      if (this.#values.size < 8) this.#values.set(key, value);
    }
    return value;
  }
}
