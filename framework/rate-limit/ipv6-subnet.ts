import { isIP, SocketAddress } from 'node:net';
import { TrellisError } from '../framework-error';
import type { AddressOf } from './client-address';

/**
 * `addressOf` with IPv6 addresses widened to their `/bits` network, written one way however the address was
 * spelled (`2001:db8:0:100::/56`): one IPv6 host is handed a whole /64 or /56, so counting per address would let
 * it take as many counts as it likes. IPv4 addresses, and values that are not addresses, pass unchanged. `128`
 * (or `false`) counts each IPv6 address alone. 56 by default, as express-rate-limit 8 does.
 *
 * @example
 * ```ts
 * const addressOf = ipv6Subnet(clientAddress(false), 56);
 * addressOf(req); // '2001:db8:0:100::/56' for 2001:db8:0:1ab:1:2:3:4, '203.0.113.7' for that IPv4 client
 * ```
 */
export function ipv6Subnet(addressOf: AddressOf, bits: number | false): AddressOf {
  if (!isPrefixLength(bits)) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'ipv6Subnet', `${String(bits)} is not a prefix length from 1 to 128 (or false)`);
  if (bits === false || bits === 128) return addressOf;
  return (req) => {
    const address = addressOf(req);
    return isIP(address) === 6 ? subnet(address, bits) : address;
  };
}

/** Whether `value` is an `ipv6Subnet` setting: a prefix length from 1 to 128, or `false`. */
export function isPrefixLength(value: unknown): value is number | false {
  return value === false || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 128);
}

// The eight 16-bit groups of a valid IPv6 address (isIP said so): `::` expanded, an IPv4 tail read as two groups,
// a zone (`%eth0`) dropped.
function groups(address: string): number[] {
  const zone = address.indexOf('%');
  const plain = zone === -1 ? address : address.slice(0, zone);
  const [head, tail] = plain.split('::') as [string, string | undefined];
  const read = (part: string | undefined): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const [a, b, c, d] = group.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(group, 16));
    }
    return out;
  };
  const front = read(head);
  const back = read(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

// The network's first address in RFC 5952's text form (Node's, as `inet_ntop` writes it), and its length.
function subnet(address: string, bits: number): string {
  const masked = groups(address).map((group, i) => {
    const kept = Math.min(16, Math.max(0, bits - i * 16));
    return kept === 16 ? group : group & ((0xffff << (16 - kept)) & 0xffff);
  });
  return `${new SocketAddress({ address: masked.map((group) => group.toString(16)).join(':'), family: 'ipv6' }).address}/${bits}`;
}
