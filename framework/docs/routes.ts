import { Get } from '../decorators/route';
import { Path, Req } from '../decorators/parameter';
import type { Class } from '../core/types';
import { errorResponse } from '../error-envelope';
import type { OpenAPIDocument } from '../openapi';
import { Request } from '../request';
import { fixedBody, fixedResponse } from '../responses/fixed';
import { router, type Controller } from '../router';
import { asset } from './assets';
import { mountBase } from './mount-base';
import { landingPage, redocPage, swaggerInit, swaggerPage, type PageInfo } from './pages';
import { ServedDocument } from './served-document';

/** What the docs need from the app. */
export interface DocsSource {
  title: string;
  version: string;
  description?: string;
  /** The (cached) OpenAPI document. */
  openapi(): OpenAPIDocument;
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
 * ReDoc, `openapi.json`, `openapi.yaml` and the pages' assets, all left out of the OpenAPI document.
 * Mounted in Express (`expressApp.use('/api', app.handler)`), the links, the assets and the document's
 * `servers` carry Express's mount path. The document is built on the first request for it and each format
 * serialized once, whatever the mount path (see {@link ServedDocument}); a page is rendered once per mount path.
 */
export function docsRouter(prefix: string, source: DocsSource): Class<Controller> {
  const page = (render: (info: PageInfo) => string, type = HTML) =>
    new MountCache((base) => fixedBody(render({ ...source, prefix: base + prefix }), type, type === HTML ? PAGE_HEADERS : undefined));
  const pages = { landing: page(landingPage), swagger: page(swaggerPage), redoc: page(redocPage), swaggerInit: page(swaggerInit, SCRIPT) };
  const document = new ServedDocument(() => source.openapi());

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
  }
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
