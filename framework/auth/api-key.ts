import { createHash, timingSafeEqual } from 'node:crypto';
import { errorResponse } from '../error-envelope';
import { TrellisError } from '../framework-error';
import { Middleware, type CallNext } from '../middleware';
import type { Request, User } from '../request';
import type { Response } from '../response';
import type { SecurityScheme } from '../security';
import { checkRealm, quoted } from './challenge';
import { isThenable } from '../core/thenable';

/**
 * What an API key is checked against: the valid keys (a list, or a map from key to the principal it stands for),
 * compared in constant time; or a function that finds the principal of a key (your store: look it up by a hash
 * of the key, never by the key with a comparison that stops at the first different character).
 *
 * @example
 * ```ts
 * const keys: ApiKeyLookup = [process.env.API_KEY!];
 * const partners: ApiKeyLookup = new Map([[process.env.PARTNER_KEY!, { sub: 'partner' }]]);
 * const stored: ApiKeyLookup = (key) => accounts.byKeyHash(sha256(key)); // a principal, or undefined
 * ```
 */
export type ApiKeyLookup =
  | readonly string[]
  | ReadonlyMap<string, User>
  | ((key: string, request: Request) => User | null | undefined | Promise<User | null | undefined>);

/**
 * Where `apiKeyAuth` reads the key and what it checks it against.
 *
 * @example
 * ```ts
 * apiKeyAuth({ header: 'X-API-Key', lookup: [process.env.API_KEY!] });
 * apiKeyAuth({ query: 'api_key', lookup: new Map([[process.env.PARTNER_KEY!, { sub: 'partner' }]]) });
 * ```
 */
export interface ApiKeyAuthOptions {
  /** The request header holding the key; `X-API-Key` when neither `header` nor `query` is given. */
  header?: string;
  /** The query parameter holding the key (instead of a header). */
  query?: string;
  /** The valid keys, or how to find the principal of a key: see {@link ApiKeyLookup}. */
  lookup: ApiKeyLookup;
  /** The key of the scheme in the OpenAPI document; `apiKeyAuth` by default. */
  schemeName?: string;
  /** The `realm` of the `WWW-Authenticate` challenge; none by default. */
  realm?: string;
}

/**
 * A guard that checks an API key sent in a header (`X-API-Key` by default) or a query parameter against the
 * app's `lookup`: the valid keys, compared in constant time (SHA-256 digests with `crypto.timingSafeEqual`), or
 * a function returning the key's principal. Sets `request.user` to the principal; 401 `{ "error": ... }` when the
 * key is missing, empty, sent twice or unknown. Documented in OpenAPI as an `apiKey` scheme (`apiKeyAuth`).
 *
 * @example
 * ```ts
 * @Use(apiKeyAuth({ header: 'X-API-Key', lookup: [process.env.API_KEY!] }))
 * class ReportRouter extends router('/reports') { ... }
 * ```
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): Middleware {
  return new ApiKeyGuard(options);
}

/** Keys longer than this are refused unread: no store holds one, and hashing them costs the server. */
const MAX_KEY_LENGTH = 1024;

/**
 * The guard `apiKeyAuth` returns: reads the key from one header or query parameter, finds its principal, sets
 * `request.user` to it; 401 `{ "error": ... }` when the key is missing, sent twice, empty or unknown.
 */
export class ApiKeyGuard extends Middleware {
  readonly security: SecurityScheme;
  readonly #header: string | undefined;
  readonly #query: string | undefined;
  readonly #find: (key: string, request: Request) => User | null | undefined | Promise<User | null | undefined>;
  readonly #challenge: string;
  readonly #missing: string;

  constructor(options: ApiKeyAuthOptions) {
    super();
    const fail = (option: string, reason: string) => new TrellisError('TRELLIS_ERR_AUTH_OPTION', 'apiKeyAuth', option, reason);
    if (options === null || typeof options !== 'object') throw fail('options', 'give an object: apiKeyAuth({ header, lookup })');
    if (options.header !== undefined && options.query !== undefined) throw fail('query', 'give header or query, not both');
    const header = options.query === undefined ? (options.header ?? 'X-API-Key') : undefined;
    if (header !== undefined && !/^[!#$%&'*+.^_`|~\w-]+$/.test(header)) throw fail('header', `${JSON.stringify(header)} is not a header name`);
    if (options.query !== undefined && (typeof options.query !== 'string' || !options.query)) throw fail('query', 'give a parameter name');
    this.#header = header?.toLowerCase();
    this.#query = options.query;
    this.#find = finder(options.lookup, fail);
    const realm = checkRealm(options.realm, fail);
    const where = header === undefined ? `query=${quoted(options.query!)}` : `header=${quoted(header)}`;
    this.#challenge = `ApiKey ${realm === undefined ? '' : `realm=${quoted(realm)}, `}${where}`;
    this.#missing = `Missing API key: send it in the ${header === undefined ? `${options.query} query parameter` : `${header} header`}`;
    const name = header ?? options.query!;
    this.security = { schemeName: options.schemeName ?? 'apiKeyAuth', type: 'apiKey', in: header === undefined ? 'query' : 'header', name };
  }

  dispatch(request: Request, callNext: CallNext): Response | Promise<Response> {
    const sent = this.#header === undefined ? request.query[this.#query!] : request.headers[this.#header];
    if (sent === undefined || sent === '') return this.#refuse(this.#missing);
    if (typeof sent !== 'string' || sent.length > MAX_KEY_LENGTH) return this.#refuse('Invalid API key');
    const found = this.#find(sent, request);
    if (!isThenable(found)) return this.#admit(found, request, callNext);
    return (found as Promise<User | null | undefined>).then((user) => this.#admit(user, request, callNext));
  }

  #admit(user: User | null | undefined, request: Request, callNext: CallNext): Response | Promise<Response> {
    if (user === null || user === undefined) return this.#refuse('Invalid API key');
    request.user = user;
    return callNext(request);
  }

  #refuse(message: string): Response {
    return errorResponse(401, message, { 'www-authenticate': this.#challenge });
  }
}

type Find = (key: string, request: Request) => User | null | undefined | Promise<User | null | undefined>;

/**
 * The lookup as one function. Stored keys are compared by their SHA-256 digests with `crypto.timingSafeEqual`,
 * every stored key each time: digests have one length whatever the key's, so neither the time of one comparison
 * nor which key matched tells how much of a guess was right.
 */
function finder(lookup: ApiKeyLookup, fail: (option: string, reason: string) => TrellisError): Find {
  if (typeof lookup === 'function') return lookup;
  const entries: Array<[string, User]> = Array.isArray(lookup)
    ? lookup.map((key, index) => [key, { sub: `api-key-${index + 1}` }])
    : lookup instanceof Map
      ? [...lookup.entries()]
      : [];
  if (!entries.length) throw fail('lookup', 'give the valid keys (a list or a Map of key to principal) or a function (key, request) => principal');
  for (const [key] of entries) {
    if (typeof key !== 'string' || key.length < 16) throw fail('lookup', 'every key is a string of at least 16 characters');
  }
  const digests = entries.map(([key]) => digest(key));
  const users = entries.map(([, user]) => user);
  return (key) => {
    const sent = digest(key);
    let match = -1;
    for (let i = 0; i < digests.length; i++) if (timingSafeEqual(sent, digests[i]) && match === -1) match = i;
    return match === -1 ? undefined : users[match];
  };
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
