import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { TrellisError } from '../framework-error';

/**
 * Which proxies in front of the app are trusted to say who the client is in `X-Forwarded-For` (as Express's and
 * Fastify's `trustProxy`): `false` (the default) uses the connection's address and ignores the header, so a client
 * cannot pick its own key; `true` takes the header's leftmost address (only behind a proxy that overwrites it);
 * a number trusts that many proxy hops (the address that many entries from the right); a list of addresses and
 * CIDRs (`10.0.0.0/8`, `::1`) trusts exactly those, walking the header from the right.
 */
export type TrustProxy = boolean | number | readonly string[];

/** The client's address of a Node request: a function of its socket and `X-Forwarded-For`. */
export type AddressOf = (req: IncomingMessage) => string;

// More entries than any real chain of proxies: a longer header is read from its right end only.
const MAX_HOPS = 32;

/**
 * How to read the client's address under `trust` ({@link TrustProxy}). IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) are read as IPv4; an `X-Forwarded-For` entry with a port (`203.0.113.7:51234`,
 * `[2001:db8::1]:51234`) or in brackets is read as its address. A list entry that is not an address or CIDR is
 * `TRELLIS_ERR_RATE_LIMIT_OPTION`.
 *
 * @example
 * ```ts
 * const addressOf = clientAddress(['10.0.0.0/8']);
 * addressOf(request.raw); // '203.0.113.7' behind the 10.x load balancer, the socket's address otherwise
 * ```
 */
export function clientAddress(trust: TrustProxy = false): AddressOf {
  if (trust === false) return socketAddress;
  if (trust === true) return (req) => forwarded(req)[0] ?? socketAddress(req);
  if (typeof trust === 'number') {
    if (!Number.isSafeInteger(trust) || trust < 0) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'trustProxy', `${trust} is not a number of hops from 0`);
    return (req) => {
      const chain = [...forwarded(req), socketAddress(req)];
      return chain[Math.max(0, chain.length - 1 - trust)];
    };
  }
  if (!Array.isArray(trust)) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'trustProxy', 'false, true, a number of hops or a list of addresses and CIDRs is expected');
  const trusted = blockList(trust);
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
  return (req) => {
    let address = socketAddress(req);
    const chain = forwarded(req);
    for (let i = chain.length - 1; i >= 0 && isTrusted(address); i--) address = chain[i];
    return address;
  };
}

function socketAddress(req: IncomingMessage): string {
  return unmapped(req.socket?.remoteAddress ?? '');
}

// The header's addresses, left to right (at most the last MAX_HOPS), as sent: one that is not an address stays
// what it is (a key of its own, bounded by the limiter), never an error.
function forwarded(req: IncomingMessage): string[] {
  const header = req.headers['x-forwarded-for'];
  if (!header) return [];
  const joined = Array.isArray(header) ? header.join(',') : header;
  const parts = joined.split(',').slice(-MAX_HOPS);
  const addresses: string[] = [];
  for (const part of parts) {
    const address = unmapped(withoutPort(part.trim()));
    if (address) addresses.push(address);
  }
  return addresses;
}

// The address of an entry a proxy wrote with the client's port (Azure Application Gateway, IIS ARR):
// `203.0.113.7:51234` and `[2001:db8::1]:51234`, or in brackets alone (`[2001:db8::1]`, RFC 7239's form). Anything
// else is as sent: a bare IPv6 address (its colons are not a port), or a value that is not an address.
function withoutPort(entry: string): string {
  if (entry.startsWith('[')) {
    const end = entry.indexOf(']');
    if (end === -1 || isIP(entry.slice(1, end)) !== 6) return entry;
    return end === entry.length - 1 || (entry[end + 1] === ':' && isPort(entry, end + 2)) ? entry.slice(1, end) : entry;
  }
  const colon = entry.indexOf(':');
  if (colon === -1 || entry.indexOf(':', colon + 1) !== -1) return entry;
  return isPort(entry, colon + 1) && isIP(entry.slice(0, colon)) === 4 ? entry.slice(0, colon) : entry;
}

// Whether `text` from `from` to its end is a port: 1 to 5 digits, at most 65535.
function isPort(text: string, from: number): boolean {
  const digits = text.length - from;
  if (digits < 1 || digits > 5) return false;
  let port = 0;
  for (let i = from; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return false;
    port = port * 10 + digit;
  }
  return port <= 65_535;
}

function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function blockList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits, extra] = typeof entry === 'string' ? entry.trim().split('/') : [];
    const family = address === undefined ? 0 : isIP(unmapped(address));
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max && /^\d+$/.test(bits!)))) {
      throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'trustProxy', `${JSON.stringify(entry)} is not an address or CIDR (10.0.0.1, 10.0.0.0/8, ::1, fd00::/8)`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(unmapped(address!), type);
    else list.addSubnet(unmapped(address!), prefix, type);
  }
  return list;
}
