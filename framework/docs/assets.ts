import { fixedBody, type FixedBody } from '../responses/fixed';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface AssetSpec {
  /** Module path of the file in an installed package. */
  file: string;
  type: string;
  transform?: (text: string) => string;
}

// ReDoc's menu footer loads the Redocly logo from a CDN; `data:,` is not an image, so ReDoc's own
// onError handler hides it and the page makes no request outside the app.
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * The files the docs pages load, from the installed packages (no CDN), served as `{docs}/assets/{name}`.
 * Only these names are served, never the rest of the package folders.
 */
const ASSETS: Record<string, AssetSpec> = {
  'swagger-ui.css': { file: 'swagger-ui-dist/swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-dist/swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui-standalone-preset.js': { file: 'swagger-ui-dist/swagger-ui-standalone-preset.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'swagger-ui-dist/favicon-32x32.png', type: 'image/png' },
  'redoc.standalone.js': {
    file: 'redoc/bundles/redoc.standalone.js',
    type: 'text/javascript; charset=utf-8',
    transform: (text) => text.split(REDOC_CDN_LOGO).join('data:,'),
  },
};

/**
 * The package files behind the assets. The published package carries copies of them in `dist/vendor/`
 * (scripts/build.js copies them with their licences), so installing trellis does not install ReDoc's
 * React application and its ~100 dependencies for one prebuilt file; from the sources they come from the
 * installed devDependencies.
 */
export const ASSET_FILES = Object.values(ASSETS).map((spec) => spec.file);

// dist/framework/docs -> dist/vendor; absent when running from the sources
const VENDOR = join(__dirname, '..', '..', 'vendor');

function assetPath(file: string): string {
  const vendored = join(VENDOR, file);
  return existsSync(vendored) ? vendored : require.resolve(file);
}

// Shared by every app in the process; each file is read on its first request.
const loaded = new Map<string, FixedBody>();

/** The asset called `name` (cached for a day by browsers), or `undefined` for any other name. */
export function asset(name: string): FixedBody | undefined {
  if (!Object.hasOwn(ASSETS, name)) return undefined;
  let found = loaded.get(name);
  if (!found) {
    const { file, type, transform } = ASSETS[name];
    const raw = readFileSync(assetPath(file));
    const body = transform ? Buffer.from(transform(raw.toString('utf8'))) : raw;
    found = fixedBody(body, type, { 'cache-control': 'public, max-age=86400' });
    loaded.set(name, found);
  }
  return found;
}
