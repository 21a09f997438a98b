import { TrellisError } from '../framework-error';

/**
 * Limits of a multipart body, checked while it streams in: over a limit is a 413 and reading stops.
 * A file up to `memorySize` stays in memory, a larger one goes to a temporary file, so one request holds at most
 * `memorySize * files` plus `fieldsSize` in memory.
 */
export interface UploadLimits {
  /** Largest file, in bytes. 10 MiB by default. */
  fileSize: number;
  /** Most files in one body. 10 by default. */
  files: number;
  /** Most non-file fields in one body. 100 by default. */
  fields: number;
  /** Largest non-file field value, in bytes. 1 MiB by default. */
  fieldSize: number;
  /** Most bytes of all non-file fields together (names and values). 1 MiB by default, as a JSON body. */
  fieldsSize: number;
  /**
   * Largest file kept in memory (`file.buffer`), in bytes; a larger one is written to a temporary file
   * (`file.path`) that is removed once the response is sent. 1 MiB by default, as FastAPI's `UploadFile`.
   */
  memorySize: number;
}

export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  fileSize: 10 * 1024 * 1024,
  files: 10,
  fields: 100,
  fieldSize: 1024 * 1024,
  fieldsSize: 1024 * 1024,
  memorySize: 1024 * 1024,
});

/** Most `name=value` pairs in a urlencoded body (413 above it), as Express's body-parser. */
export const URLENCODED_PARAMETER_LIMIT = 1000;

/** Deepest `a[b][c]` nesting of a field name (400 above it), as Express's body-parser. */
export const FIELD_DEPTH_LIMIT = 32;

/** The app's limits: defaults overridden by `AppOptions.uploads`, each a positive integer (checked at startup). */
export function resolveUploadLimits(options: Partial<UploadLimits> = {}): Readonly<UploadLimits> {
  const limits = { ...DEFAULT_UPLOAD_LIMITS };
  for (const key of Object.keys(options) as Array<keyof UploadLimits>) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(key in DEFAULT_UPLOAD_LIMITS) || !Number.isSafeInteger(value) || value < 1) {
      throw new TrellisError('TRELLIS_ERR_UPLOAD_LIMIT', key, value);
    }
    limits[key] = value;
  }
  return Object.freeze(limits);
}
