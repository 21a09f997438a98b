import { createHash } from 'node:crypto';
import fresh from 'fresh';
import type { Request } from '../request';
import { Response } from '../response';

/** A body known at startup (a docs page, the favicon) with its type, a strong ETag and extra headers. */
export interface FixedBody {
  body: string | Buffer;
  type: string;
  etag: string;
  headers?: Record<string, string>;
}

/** A {@link FixedBody} for `body`, its ETag hashed once, here. */
export function fixedBody(body: string | Buffer, type: string, headers?: Record<string, string>): FixedBody {
  return { body, type, headers, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** 200 with the body, or 304 without it when the request's `If-None-Match` names the ETag. */
export function fixedResponse(request: Request, fixed: FixedBody): Response {
  const headers = { ...fixed.headers, etag: fixed.etag, 'content-type': fixed.type };
  if (fresh(request.headers, headers)) return new Response(undefined, { status: 304, headers });
  return new Response(fixed.body, { headers });
}
