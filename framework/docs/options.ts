import { TrellisError } from '../framework-error';

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

const SEGMENTS = /^(?:\/[A-Za-z0-9._~-]+)*$/;

/**
 * The docs prefix for `AppOptions.docs`: `'/docs'` by default, `''` for the root, `undefined` when disabled.
 * Throws `TRELLIS_ERR_DOCS_PATH` for anything but plain segments (no `{name}` parameters, `:`, `*`).
 */
export function docsPrefix(option: DocsOptions | false | undefined): string | undefined {
  if (option === false) return undefined;
  const path = option?.path ?? '/docs';
  const prefix = `/${path}`.replace(/\/{2,}/g, '/').replace(/\/$/, '');
  if (!SEGMENTS.test(prefix)) throw new TrellisError('TRELLIS_ERR_DOCS_PATH', path);
  return prefix;
}
