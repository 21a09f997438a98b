import { createHash } from 'node:crypto';
import fresh from 'fresh';
import type { Request } from '../request';
import { Response } from '../response';

/** A body known before it is served (a docs page or asset, the favicon) with its response headers, ETag included. */
export interface FixedBody {
  readonly body: string | Buffer;
  /** `content-type`, a strong `etag` and any extra headers, built once (each response copies them). */
  readonly headers: Readonly<Record<string, string>>;
}

/** A {@link FixedBody} for `body`: its ETag hashed and its headers built once, here. */
export function fixedBody(body: string | Buffer, type: string, headers?: Record<string, string>): FixedBody {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, headers: { ...headers, etag, 'content-type': type } };
}

/** 200 with the body, or 304 without it when the request's `If-None-Match` names the ETag. */
export function fixedResponse(request: Request, fixed: FixedBody): Response {
  const { headers } = fixed;
  if (fresh(request.headers, headers)) return new Response(undefined, { status: 304, headers });
  return new Response(fixed.body, { headers });
}
