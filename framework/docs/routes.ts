import { Get } from '../decorators/route';
import { Path, Req } from '../decorators/parameter';
import type { Class } from '../metadata';
import type { OpenAPIDocument } from '../openapi';
import { Request } from '../request';
import { JSONResponse } from '../response';
import { fixedBody, fixedResponse, type FixedBody } from '../responses/fixed';
import { router, type Controller } from '../router';
import { asset } from './assets';
import { landingPage, redocPage, swaggerInit, swaggerPage, type PageInfo } from './pages';

/** What the docs need from the app. */
export interface DocsSource {
  title: string;
  version: string;
  description?: string;
  /** The (cached) OpenAPI document. */
  openapi(): OpenAPIDocument;
}

// The pages load only what the app serves. This also stops ReDoc's footer logo, which it takes from a CDN.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "worker-src 'self' blob:; font-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'self'",
};

const HIDDEN = { includeInSchema: false } as const;

/**
 * The docs pages as a router class mounted at `prefix` (`''` for the root): the landing page, Swagger UI,
 * ReDoc, `openapi.json`, `openapi.yaml` and the pages' assets, all left out of the OpenAPI document.
 * Pages are rendered once per mount point: mounted in Express (`expressApp.use('/api', app.handler)`), the
 * links, the assets and the document's `servers` carry Express's mount path. The document is built on the
 * first request for it and serialized once.
 */
export function docsRouter(prefix: string, source: DocsSource): Class<Controller> {
  const pages = new MountCache((base) => renderPages({ ...source, prefix: base + prefix }));
  const documents = new MountCache((base) => serialize(source.openapi(), base));

  class DocsRouter extends router(prefix || '/') {
    @Get('/', HIDDEN) landing(@Req() request: Request) {
      return fixedResponse(request, pages.get(request).landing);
    }

    @Get('/swagger', HIDDEN) swagger(@Req() request: Request) {
      return fixedResponse(request, pages.get(request).swagger);
    }

    @Get('/redoc', HIDDEN) redoc(@Req() request: Request) {
      return fixedResponse(request, pages.get(request).redoc);
    }

    @Get('/swagger-init.js', HIDDEN) swaggerInit(@Req() request: Request) {
      return fixedResponse(request, pages.get(request).swaggerInit);
    }

    @Get('/openapi.json', HIDDEN) json(@Req() request: Request) {
      return fixedResponse(request, documents.get(request).json);
    }

    @Get('/openapi.yaml', HIDDEN) yaml(@Req() request: Request) {
      return fixedResponse(request, documents.get(request).yaml);
    }

    @Get('/assets/{name}', HIDDEN) asset(@Req() request: Request, @Path('name') name: string) {
      const found = asset(name);
      return found ? fixedResponse(request, found) : new JSONResponse({ error: 'Not Found' }, { status: 404 });
    }
  }
  return DocsRouter;
}

function renderPages(info: PageInfo): Record<'landing' | 'swagger' | 'redoc' | 'swaggerInit', FixedBody> {
  const html = (body: string) => fixedBody(body, 'text/html; charset=utf-8', PAGE_HEADERS);
  return {
    landing: html(landingPage(info)),
    swagger: html(swaggerPage(info)),
    redoc: html(redocPage(info)),
    swaggerInit: fixedBody(swaggerInit(info), 'text/javascript; charset=utf-8'),
  };
}

function serialize(document: OpenAPIDocument, base: string): { json: FixedBody; yaml: FixedBody } {
  const served = base ? { ...document, servers: [{ url: base }] } : document;
  const { stringify } = require('yaml') as typeof import('yaml');
  return {
    json: fixedBody(JSON.stringify(served), 'application/json; charset=utf-8'),
    yaml: fixedBody(stringify(served, { aliasDuplicateObjects: false }), 'application/yaml; charset=utf-8'),
  };
}

/**
 * Values per mount point: `''` when the app serves requests itself, Express's `req.baseUrl` when it is mounted
 * in an Express app. A mount path is the app's configuration, but a pattern mount could make it vary with
 * the request: past a few, values are computed per request instead of kept.
 */
class MountCache<T> {
  readonly #values = new Map<string, T>();

  constructor(readonly make: (base: string) => T) {}

  get(request: Request): T {
    const base = (request.raw as { baseUrl?: unknown }).baseUrl;
    const key = typeof base === 'string' ? base.replace(/\/+$/, '') : '';
    let value = this.#values.get(key);
    if (value === undefined) {
      value = this.make(key);
      if (this.#values.size < 8) this.#values.set(key, value);
    }
    return value;
  }
}
