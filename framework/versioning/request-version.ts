import { errorResponse } from '../error-envelope';
import { TrellisError } from '../framework-error';
import type { Request } from '../request';
import type { Response } from '../response';
import type { RequestedVersion } from '../routing/route-table';
import type { VersioningSettings } from './options';

/** What a request named that no route declares: found by no versioned route, only by version-neutral ones. */
export const UNKNOWN_VERSION: unique symbol = Symbol('unknown version');

/** Header versioning at work: the version each request asks for, and the answer when its path has none for it. */
export interface VersionReader {
  /** The header the version is read from, lower case (`x-api-version`). */
  readonly header: string;
  /** The version named by the header (trimmed), the default when there is none, or {@link UNKNOWN_VERSION}. */
  read(request: Request): RequestedVersion;
  /** The 400 for a request to a versioned path without a usable version (`version` as {@link read} gave it). */
  refusal(version: RequestedVersion): Response;
}

/**
 * The version reader of an app with header versioning and versioned routes (undefined otherwise: URI versioning
 * needs none); `versions` are the versions the routes declare. A `defaultVersion` none declares is `TRELLIS_ERR_VERSIONING`.
 *
 * @example
 * ```ts
 * const reader = versionReader(settings.versioning, ['1', '2']);
 * reader?.read(request); // '2' for X-API-Version: 2
 * ```
 */
export function versionReader(settings: VersioningSettings, versions: readonly string[]): VersionReader | undefined {
  if (settings.type !== 'header' || versions.length === 0) return undefined;
  const { header } = settings;
  const fallback = defaultOf(settings, versions);
  const known = new Set(versions);
  const list = versions.join(', ');
  return {
    header,
    read(request) {
      const raw = request.headers[header];
      const value = (typeof raw === 'string' ? raw : raw?.[0])?.trim();
      if (!value) return fallback;
      return known.has(value) ? value : UNKNOWN_VERSION;
    },
    // The value is never echoed: it is whatever the client sent.
    refusal(version) {
      const message = version === undefined ? `Missing ${header} header: this API's versions are ${list}` : `Unknown API version in ${header}: this API's versions are ${list}`;
      return errorResponse(400, message);
    },
  };
}

function defaultOf({ defaultVersion }: VersioningSettings, versions: readonly string[]): string | undefined {
  if (defaultVersion === undefined) return undefined;
  if (defaultVersion === 'latest') return versions[versions.length - 1];
  if (!versions.includes(defaultVersion)) {
    throw new TrellisError('TRELLIS_ERR_VERSIONING', 'defaultVersion', `${JSON.stringify(defaultVersion)} is not a version of the routes (${versions.join(', ')})`);
  }
  return defaultVersion;
}
