/**
 * Raised when discovery or a key-set fetch fails (any answer but 200 OK, no answer, a body that is not what it
 * should be): the guard answers 401 "The keys that verify tokens are unavailable; try again later" and logs the
 * outage once. The message names the URL and what happened, never a token.
 */
export class KeysUnavailable extends Error {
  override readonly name = 'KeysUnavailable';
}

/**
 * GETs the JSON document at `url` (a key set, a discovery document), following no redirect. Every way it can
 * fail is a {@link KeysUnavailable} that names the URL and what happened: the status of any answer but 200 OK
 * (with a redirect's Location), a timeout, a connection that failed, a body that is not JSON.
 *
 * @example
 * ```ts
 * await fetchJson('https://login.example.com/jwks.json', { signal: AbortSignal.timeout(5000) }, 5000);
 * // KeysUnavailable: GET https://login.example.com/jwks.json answered 503
 * ```
 */
export async function fetchJson(url: string, init: { signal: AbortSignal; headers?: Headers | Record<string, string> }, timeout: number): Promise<unknown> {
  let body: string;
  try {
    const response = await fetch(url, { ...init, method: 'GET', redirect: 'manual' });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new KeysUnavailable(`GET ${url} answered ${response.status}${redirectOf(response, url)}`);
    }
    body = await response.text();
  } catch (error) {
    if (error instanceof KeysUnavailable) throw error;
    const what = init.signal.aborted ? `timed out after ${timeout} ms` : `failed: ${(error as Error).message}`;
    throw new KeysUnavailable(`GET ${url} ${what}`, { cause: error });
  }
  try {
    return JSON.parse(body);
  } catch {
    throw new KeysUnavailable(`GET ${url} answered 200 with a body that is not JSON`);
  }
}

/** `{ "keys": [ {...}, ... ] }` (RFC 7517 §5), the members' own checks left to jose. */
export function isKeySet(document: unknown): boolean {
  const keys = (document as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) && keys.every((key) => key !== null && typeof key === 'object' && !Array.isArray(key));
}

function redirectOf(response: Response, url: string): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return '';
  let target = location;
  try {
    target = new URL(location, url).href;
  } catch {
    // Named as sent.
  }
  return ` (a redirect to ${target}, not followed)`;
}
