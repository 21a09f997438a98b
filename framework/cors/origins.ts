import { TrellisError } from '../framework-error';
import type { OriginRule } from './options';

/** Decides whether a request's `Origin` is allowed; `'*'` allows every origin. */
export interface OriginMatcher {
  readonly wildcard: boolean;
  allows(origin: string): boolean;
}

// A serialized origin (RFC 6454): scheme "://" host [":" port], nothing else. Anything else (a path, spaces, CR/LF,
// a user name) is never allowed, so a value echoed into Access-Control-Allow-Origin is always a plain origin.
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
const MAX_ORIGIN = 1024;
// In config: `*.` as the first label(s) of the host, `:*` as the port.
const PATTERN = /^([a-z][a-z0-9+.-]*:\/\/)(\*\.)?((?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\]))(:\d{1,5}|:\*)?$/;

/**
 * Whether `origin` is a serialized origin a browser sends (lower-case scheme and host, optional port): what a
 * response may reflect. `null` (sandboxed documents, `file:` pages) is not: any site can make a browser send it.
 */
export function isOrigin(origin: string): boolean {
  return origin.length <= MAX_ORIGIN && ORIGIN.test(origin);
}

/** Compiles the configured origins once; a rule that is not an origin or pattern is `TRELLIS_ERR_CORS_OPTION`. */
export function originMatcher(rules: OriginRule | readonly OriginRule[]): OriginMatcher {
  const list = Array.isArray(rules) ? (rules as readonly OriginRule[]) : [rules as OriginRule];
  if (list.includes('*')) return { wildcard: true, allows: () => true };
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const rule of list) {
    if (rule instanceof RegExp) patterns.push(new RegExp(rule.source, rule.flags.replace(/[gy]/g, '')));
    else if (typeof rule === 'string' && isOrigin(rule.toLowerCase())) exact.add(rule.toLowerCase());
    else if (typeof rule === 'string' && rule.includes('*')) patterns.push(pattern(rule));
    else throw new TrellisError('TRELLIS_ERR_CORS_OPTION', 'origins', `${JSON.stringify(rule)} is not an origin (scheme://host[:port], no path or trailing slash), '*' or a pattern such as 'https://*.example.com'`);
  }
  if (patterns.length === 0) return { wildcard: false, allows: (origin) => exact.has(origin) };
  return { wildcard: false, allows: (origin) => exact.has(origin) || (isOrigin(origin) && patterns.some((re) => re.test(origin))) };
}

// 'https://*.example.com' matches one or more labels before example.com (never example.com itself);
// 'http://localhost:*' any port. Anchored: 'https://evil.com.example.com.attacker.net' matches neither.
function pattern(rule: string): RegExp {
  const parts = PATTERN.exec(rule.toLowerCase());
  if (!parts || (!parts[2] && parts[4] !== ':*')) {
    throw new TrellisError('TRELLIS_ERR_CORS_OPTION', 'origins', `${JSON.stringify(rule)} is not a pattern: '*' stands for leading labels of the host ('https://*.example.com') or the port ('http://localhost:*')`);
  }
  const [, scheme, sub, host, port] = parts;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const labels = sub ? '(?:[a-z0-9-]+\\.)+' : '';
  const portPart = port === ':*' ? '(?::\\d{1,5})?' : port ? escape(port) : '';
  return new RegExp(`^${escape(scheme)}${labels}${escape(host)}${portPart}$`);
}
