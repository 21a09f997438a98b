import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { ExpressApp } from '../express-app';
import { TrellisError } from '../framework-error';
import type { OpenAPIDocument } from '../openapi';
import { asset } from './assets';
import { landingPage, redocPage, swaggerInit, swaggerPage, type PageInfo } from './pages';

/**
 * `AppOptions.docs`: where the documentation pages are served (`/docs` by default; `docs: false` turns them off).
 *
 * @example
 * ```ts
 * const app = new BaseRouter({ title: 'Tasks API', docs: { path: '/api-docs' } });
 * // GET /api-docs, /api-docs/swagger, /api-docs/redoc, /api-docs/openapi.json, /api-docs/openapi.yaml
 * ```
 */
export interface DocsOptions {
  path?: string;
}

/** What the docs need from the app. */
export interface DocsSource {
  title: string;
  version: string;
  description?: string;
  /** The (cached) OpenAPI document. */
  openapi(): OpenAPIDocument;
}

const SEGMENTS = /^(?:\/[A-Za-z0-9._~-]+)*$/;

// The pages load only what the app serves. This also stops ReDoc's footer logo, which it takes from a CDN.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "worker-src 'self' blob:; font-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
};

/**
 * The docs prefix for `AppOptions.docs`: `'/docs'` by default, `''` for the root, `undefined` when disabled.
 * Throws `TRELLIS_ERR_DOCS_PATH` for a path Express would read as a pattern (`:id`, `*`, `{}`...).
 */
export function docsPrefix(option: DocsOptions | false | undefined): string | undefined {
  if (option === false) return undefined;
  const path = option?.path ?? '/docs';
  const prefix = `/${path}`.replace(/\/{2,}/g, '/').replace(/\/$/, '');
  if (!SEGMENTS.test(prefix)) {
    throw new TrellisError('TRELLIS_ERR_DOCS_PATH', path);
  }
  return prefix;
}

/**
 * Serves the docs on the app's Express instance (which only sees requests no route matched, so API
 * routes pay nothing): the landing page, Swagger UI, ReDoc, `openapi.json`, `openapi.yaml` and assets.
 * Pages are rendered once here; the document is built on first request and serialized once.
 */
export function mountDocs(express: ExpressApp, prefix: string, source: DocsSource): void {
  const { Router } = require('express') as typeof import('express');
  const info: PageInfo = { title: source.title, version: source.version, description: source.description, prefix };
  const fixed = (text: Text, type: string, headers = {}): RequestHandler => (_req, res) => reply(res, text, type, headers);
  const html = (body: string) => fixed(toText(body), 'html', PAGE_HEADERS);

  const router = Router();
  router.get('/', html(landingPage(info)));
  router.get('/swagger', html(swaggerPage(info)));
  router.get('/redoc', html(redocPage(info)));
  router.get('/swagger-init.js', fixed(toText(swaggerInit(info)), 'text/javascript'));
  router.get('/openapi.json', (_req, res) => reply(res, serialized(source.openapi()).json, 'application/json'));
  router.get('/openapi.yaml', (_req, res) => reply(res, serialized(source.openapi()).yaml, 'application/yaml'));
  router.get('/assets/:name', (req, res, next) => {
    const found = asset(req.params.name as string);
    if (!found) return next();
    res.set({ etag: found.etag, 'cache-control': 'public, max-age=86400' }).type(found.type).send(found.body);
  });
  express.use(prefix || '/', router);
}

function reply(res: Response, text: Text, type: string, headers: Record<string, string> = {}): void {
  res.set({ ...headers, etag: text.etag }).type(type).send(text.body);
}

/** A response body with its ETag, computed once (Express answers 304 when If-None-Match matches). */
interface Text {
  body: string;
  etag: string;
}

function toText(body: string): Text {
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

const texts = new WeakMap<OpenAPIDocument, { json: Text; yaml: Text }>();

function serialized(document: OpenAPIDocument): { json: Text; yaml: Text } {
  let text = texts.get(document);
  if (!text) {
    const { stringify } = require('yaml') as typeof import('yaml');
    text = {
      json: toText(JSON.stringify(document)),
      yaml: toText(stringify(document, { aliasDuplicateObjects: false })),
    };
    texts.set(document, text);
  }
  return text;
}
