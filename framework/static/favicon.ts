import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { Get } from '../decorators/route';
import { Req } from '../decorators/parameter';
import { TrellisError } from '../framework-error';
import type { Class } from '../core/types';
import { Request } from '../request';
import { fixedBody, fixedResponse } from '../responses/fixed';
import { router, type Controller } from '../router';

const TYPES: Record<string, string> = { '.png': 'image/png', '.svg': 'image/svg+xml', '.gif': 'image/gif' };

/**
 * `GET /favicon.ico` as a router class serving `file`, read once, here: `image/x-icon` (or the type of a
 * .png/.svg/.gif file), an ETag with 304 on a match, and a day of caching.
 */
export function faviconRouter(file: string): Class<Controller> {
  let icon: Buffer;
  try {
    icon = readFileSync(resolve(file));
  } catch {
    throw new TrellisError('TRELLIS_ERR_FAVICON', file);
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'image/x-icon';
  const fixed = fixedBody(icon, type, { 'cache-control': 'public, max-age=86400' });

  class Favicon extends router('/') {
    @Get('/favicon.ico', { includeInSchema: false }) icon(@Req() request: Request) {
      return fixedResponse(request, fixed);
    }
  }
  return Favicon;
}
