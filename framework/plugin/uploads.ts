import { resolveUploadLimits, type UploadLimits } from '../uploads/limits';
import type { Plugin } from './plugin';

/**
 * The multipart limits of every request as a plug-in: defaults overridden by `limits`, each checked now (a positive
 * integer of a known name, else `TRELLIS_ERR_UPLOAD_LIMIT`). `AppOptions.uploads` registers it for you. (It lives
 * here, not in uploads/: the plug-in interface names the limits' type, so uploads/limits.ts cannot name the plug-in's.)
 *
 * @example
 * ```ts
 * import { BaseRouter } from 'trellis';
 * import { uploads } from 'trellis/plugins';
 *
 * const app = new BaseRouter().register(uploads({ fileSize: 50 * 1024 * 1024, files: 1 }));
 * ```
 */
export function uploads(limits: Partial<UploadLimits>): Plugin & { readonly limits: Readonly<UploadLimits> } {
  const resolved = resolveUploadLimits(limits);
  return { name: 'uploads', limits: resolved, register: (host) => host.requestContext({ uploadLimits: resolved }) };
}
