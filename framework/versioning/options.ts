import { TrellisError } from '../framework-error';
import { isVersionName } from './router-version';

/**
 * `AppOptions.versioning`: how a client names the API version of a versioned router
 * (`router('/tasks', { version: '1' })`). Routers without a version are version-neutral: served at their own
 * path, whatever version is asked for.
 *
 * @example
 * ```ts
 * const byUri = new BaseRouter({ versioning: { type: 'uri' } });                  // GET /v1/tasks, GET /v2/tasks
 * const byHeader = new BaseRouter({ versioning: { type: 'header', defaultVersion: '1' } }); // GET /tasks, X-API-Version: 2
 * ```
 */
export interface VersioningOptions {
  /** `'uri'` (the default): a versioned route is served under `/{prefix}{version}`. `'header'`: at its own path, the version read from `header`. */
  type?: 'uri' | 'header';
  /** The request header naming the version (`type: 'header'`): `x-api-version` by default. */
  header?: string;
  /** What comes before the version in the URI (`type: 'uri'`): `'v'` by default (`/v1/tasks`); `''` gives `/1/tasks`. */
  prefix?: string;
  /**
   * The version a request without the header gets (`type: 'header'`): a version the routes declare, or `'latest'`
   * (the highest). Without it such a request to a versioned path is a 400 naming the header.
   */
  defaultVersion?: string;
}

/** {@link VersioningOptions} checked, defaults applied. */
export interface VersioningSettings {
  type: 'uri' | 'header';
  /** Lower case. */
  header: string;
  prefix: string;
  defaultVersion: string | undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PREFIX = /^[A-Za-z._~-]{0,16}$/;

/** The settings of `AppOptions.versioning`; a value that does not fit is `TRELLIS_ERR_VERSIONING` naming the option. */
export function versioningSettings(options: VersioningOptions | undefined): VersioningSettings {
  const { type = 'uri', header = 'x-api-version', prefix = 'v', defaultVersion } = options ?? {};
  if (type !== 'uri' && type !== 'header') throw new TrellisError('TRELLIS_ERR_VERSIONING', 'type', `must be 'uri' or 'header', got ${JSON.stringify(type)}`);
  if (typeof header !== 'string' || !TOKEN.test(header)) {
    throw new TrellisError('TRELLIS_ERR_VERSIONING', 'header', `must be a header name such as x-api-version, got ${JSON.stringify(header)}`);
  }
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new TrellisError('TRELLIS_ERR_VERSIONING', 'prefix', `must be up to 16 letters or ._~- (like v), got ${JSON.stringify(prefix)}`);
  }
  if (defaultVersion !== undefined) {
    if (type !== 'header') throw new TrellisError('TRELLIS_ERR_VERSIONING', 'defaultVersion', "applies to type: 'header' only (a URI always names its version)");
    if (defaultVersion !== 'latest' && !isVersionName(defaultVersion)) {
      throw new TrellisError('TRELLIS_ERR_VERSIONING', 'defaultVersion', `must be a version name or 'latest', got ${JSON.stringify(defaultVersion)}`);
    }
  }
  return { type, header: header.toLowerCase(), prefix, defaultVersion };
}
