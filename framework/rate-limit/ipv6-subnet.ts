import { isIP } from 'node:net';
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
  if (bits === false || bits === 128) return addressOf;
  if (!Number.isInteger(bits) || bits < 1 || bits > 128) throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', 'ipv6Subnet', `${String(bits)} is not a prefix length from 1 to 128 (or false)`);
  return (req) => {
    const address = addressOf(req);
    return isIP(address) === 6 ? subnet(address, bits) : address;
  };
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

function subnet(address: string, bits: number): string {
  const masked = groups(address).map((group, i) => {
    const kept = Math.min(16, Math.max(0, bits - i * 16));
    return kept === 16 ? group : group & ((0xffff << (16 - kept)) & 0xffff);
  });
  return `${compress(masked)}/${bits}`;
}

// RFC 5952's text form: lower-case hex, the longest run of two or more zero groups as `::`.
function compress(groups: number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    if (end - i > bestLength) [best, bestLength] = [i, end - i];
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}
