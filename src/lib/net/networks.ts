// Address classes for outbound connections made on a tenant's behalf (docs/security.md, Outbound
// connections). Only global unicast addresses are reachable by default; an operator opts further
// networks in by CIDR. Classification is ipaddr.js's, after unwrapping IPv4-mapped IPv6 addresses.
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type Network = [IpAddress, number];

/** An address in canonical form, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as the IPv4 address it carries; null if it is none. */
export function parseAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.process(bare);
}

/**
 * Whether an address is in the public internet: ipaddr.js's `unicast` class, for IPv6 only within
 * global unicast (2000::/3). Everything else is refused
 * by default: loopback, private (RFC 1918), unique-local IPv6, link-local (cloud metadata), unspecified,
 * multicast, broadcast, carrier-grade NAT (100.64.0.0/10), and the reserved, documentation and
 * tunnelling ranges (6to4, Teredo, NAT64) that can carry a private IPv4 address.
 */
export const isPublicUnicast = (address: IpAddress): boolean =>
  address.range() === 'unicast' && (address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6));

/**
 * IPv6 global unicast (RFC 4291): ipaddr.js calls anything it has no name for `unicast`, which takes
 * in the deprecated IPv4-compatible `::a.b.c.d` (`::/96`) and unassigned space; only 2000::/3 is public.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * OVERLOOK_ALLOWED_NETWORKS: comma-separated CIDRs (`192.168.10.0/24,10.0.0.5/32,fd00::/8`); a bare
 * address means that one address. Throws naming the bad entry.
 */
export function parseNetworks(text: string | undefined, variable = 'OVERLOOK_ALLOWED_NETWORKS'): Network[] {
  const out: Network[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    try {
      if (entry.includes('/')) {
        const [addr, bits] = ipaddr.parseCIDR(entry);
        // Addresses are compared unwrapped, so an IPv4-mapped network is kept as the IPv4 network it is.
        const mapped = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96;
        out.push(mapped ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96] : [addr, bits]);
      } else {
        const addr = ipaddr.process(entry);
        out.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      throw new Error(`${variable}: "${entry}" is not a network in CIDR form (for example 192.168.10.0/24 or fd00::/8)`);
    }
  }
  return out;
}

/** Whether the address lies in one of the networks (an IPv4 address never matches an IPv6 network). */
export const inNetworks = (address: IpAddress, networks: readonly Network[]): boolean =>
  networks.some(([net, bits]) => net.kind() === address.kind() && address.match(net as never, bits));
