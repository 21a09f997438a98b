import type { IncomingMessage } from 'node:http';
import type { OriginRule } from '../cors/options';
import { originMatcher, type OriginMatcher } from '../cors/origins';
import { TrellisError } from '../framework-error';

/**
 * Which page origins may open a WebSocket (cross-site WebSocket hijacking: a browser sends the user's cookies with
 * an upgrade from any site, and CORS does not apply to upgrades). An upgrade without `Origin` is no browser's and
 * passes; `Origin: null` passes only when `'null'` is listed.
 */
export interface OriginPolicy {
  allows(req: IncomingMessage): boolean;
}

/**
 * The policy of `rules` (CORS origin rules, plus `'null'`): a page of the app's own origin (the `Origin`'s host and
 * port are the `Host` the upgrade was sent to) always passes, as CORS never applies to it; another passes when a
 * rule allows it. A rule that is neither is `TRELLIS_ERR_WEBSOCKET_OPTION` naming `where`.
 *
 * @example
 * ```ts
 * originPolicy(['https://app.example.com', 'null'], 'origins').allows(req);
 * originPolicy(undefined, 'origins').allows(req); // same-origin only
 * ```
 */
export function originPolicy(rules: OriginRule | readonly OriginRule[] | undefined, where: string): OriginPolicy {
  if (rules === undefined) return { allows: (req) => sameOrigin(req.headers.origin, req.headers.host) };
  const list = (Array.isArray(rules) ? rules : [rules]) as OriginRule[];
  const allowsNull = list.includes('null');
  let matcher: OriginMatcher;
  try {
    matcher = originMatcher(list.filter((rule) => rule !== 'null'));
  } catch (error) {
    if (!(error instanceof TrellisError)) throw error;
    throw new TrellisError('TRELLIS_ERR_WEBSOCKET_OPTION', where, String(error.details.reason ?? error.message), "origins as CORS writes them, or 'null' for sandboxed pages");
  }
  return {
    allows(req) {
      const origin = req.headers.origin;
      if (origin === undefined) return true;
      if (origin === 'null') return allowsNull;
      return matcher.allows(origin.toLowerCase()) || sameOrigin(origin, req.headers.host);
    },
  };
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

// `http://localhost:8000` against `Host: localhost:8000`; a default port may be written or left out on either side.
function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === 'null' || host === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const port = url.port || DEFAULT_PORTS[url.protocol];
  if (port === undefined || url.pathname !== '/' || url.search || url.username) return false;
  return `${url.hostname}:${port}` === withPort(host.toLowerCase(), port);
}

function withPort(host: string, fallback: string): string {
  const close = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  return colon > close ? host : `${host}:${fallback}`;
}
