import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve } from 'node:path';
import { TrellisError } from '../framework-error';

const TYPES: Record<string, string> = { '.png': 'image/png', '.svg': 'image/svg+xml', '.gif': 'image/gif' };

/**
 * A `GET /favicon.ico` handler for `file`, read once here: `image/x-icon` (or the type of a .png/.svg/.gif
 * file), an ETag with 304 on a match, and a day of caching.
 */
export function faviconHandler(file: string): (req: IncomingMessage, res: ServerResponse) => void {
  let icon: Buffer;
  try {
    icon = readFileSync(resolve(file));
  } catch {
    throw new TrellisError('TRELLIS_ERR_FAVICON', file);
  }
  const headers = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'image/x-icon',
    'cache-control': 'public, max-age=86400',
    etag: `"${createHash('sha1').update(icon).digest('base64url')}"`,
  };
  return (req, res) => {
    if (req.headers['if-none-match'] === headers.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(icon.length) });
    res.end(req.method === 'HEAD' ? undefined : icon);
  };
}
