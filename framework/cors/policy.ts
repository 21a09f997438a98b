import { TrellisError } from '../framework-error';
import type { Request } from '../request';
import { Response, type ResponseHeaders } from '../response';
import type { CorsOptions } from './options';
import { originMatcher, type OriginMatcher } from './origins';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// An Access-Control-Request-Headers value echoed back: header names separated by commas, within Node's header size.
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const MAX_ECHO = 4096;
const DEFAULT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The compiled form of {@link CorsOptions}: the header values computed once, the origin matcher. */
export class CorsPolicy {
  readonly #origins: OriginMatcher;
  readonly #any: boolean;
  readonly #methods: string;
  readonly #headers: string | undefined;
  readonly #expose: string | undefined;
  readonly #credentials: boolean;
  readonly #maxAge: string;

  constructor(options: CorsOptions, where: string) {
    this.#origins = originMatcher(options.origins ?? '*');
    this.#credentials = options.credentials ?? false;
    if (this.#credentials && this.#origins.wildcard) throw new TrellisError('TRELLIS_ERR_CORS_CREDENTIALS', where);
    this.#any = this.#origins.wildcard;
    this.#methods = tokens('methods', options.methods ?? DEFAULT_METHODS, true);
    this.#headers = options.headers && tokens('headers', options.headers, false);
    this.#expose = options.exposeHeaders?.length ? tokens('exposeHeaders', options.exposeHeaders, false) : undefined;
    const maxAge = options.maxAge ?? 600;
    if (!(Number.isSafeInteger(maxAge) && maxAge >= 0)) throw new TrellisError('TRELLIS_ERR_CORS_OPTION', 'maxAge', `${String(maxAge)} is not a whole number of seconds from 0`);
    this.#maxAge = String(maxAge);
  }

  /** The `Access-Control-Allow-Origin` value for `origin`, or undefined when it is refused. */
  allowOrigin(origin: string): string | undefined {
    if (this.#any && !this.#credentials) return '*';
    return this.#origins.allows(origin) ? origin : undefined;
  }

  /** Adds the headers of an actual (non-preflight) response to an allowed origin's request. */
  decorate(headers: ResponseHeaders, allowed: string): void {
    headers.set('access-control-allow-origin', allowed);
    if (this.#credentials) headers.set('access-control-allow-credentials', 'true');
    if (this.#expose !== undefined) headers.set('access-control-expose-headers', this.#expose);
  }

  /** The 204 answering a preflight; a refused origin gets none of the `Access-Control-Allow-*` headers. */
  preflight(request: Request, origin: string): PreflightResponse {
    const response = new PreflightResponse(undefined, { status: 204 });
    const { headers } = response;
    headers.set('vary', 'Origin');
    const allowed = this.allowOrigin(origin);
    if (allowed === undefined) return response;
    headers.set('access-control-allow-origin', allowed);
    if (this.#credentials) headers.set('access-control-allow-credentials', 'true');
    headers.set('access-control-allow-methods', this.#methods);
    const asked = request.raw.headers['access-control-request-headers'];
    if (this.#headers !== undefined) headers.set('access-control-allow-headers', this.#headers);
    else {
      headers.set('vary', 'Origin, Access-Control-Request-Headers');
      // Echoed only when it is a plain list of header names: never a raw request value in a response header.
      if (asked !== undefined && asked.length <= MAX_ECHO && TOKEN_LIST.test(asked)) headers.set('access-control-allow-headers', asked);
    }
    headers.set('access-control-max-age', this.#maxAge);
    return response;
  }
}

/** A preflight's answer: the response hook leaves it as it is. */
export class PreflightResponse extends Response {}

function tokens(option: string, values: readonly string[], upper: boolean): string {
  if (!Array.isArray(values)) throw new TrellisError('TRELLIS_ERR_CORS_OPTION', option, 'a list of names is expected');
  for (const value of values) {
    if (typeof value !== 'string' || !TOKEN.test(value)) throw new TrellisError('TRELLIS_ERR_CORS_OPTION', option, `${JSON.stringify(value)} is not a ${upper ? 'method' : 'header'} name`);
  }
  return [...new Set(values.map((value) => (upper ? value.toUpperCase() : value.toLowerCase())))].join(', ');
}
