// A key's own limits (docs/access-model.md, Key limits): how many requests it may make per window, and
// the addresses it may be used from. Parsed and checked when a key is created or edited; compiled once
// into an allow-list when the key is loaded into the access layer's cache, so a request only asks it.
import { isIP, isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { validation } from '../../lib/errors.js';
import { inNetworks, type Network, parseAddress } from '../../lib/net/networks.js';

export interface RateLimit {
  requests: number;
  window_seconds: number;
}

/** Bounds of a rate limit: at least one request, at most a day's window and a million requests in it. */
export const RATE_LIMIT_BOUNDS = { requests: { min: 1, max: 1_000_000 }, window_seconds: { min: 1, max: 86_400 } } as const;
/** The most CIDRs one key may list. */
export const MAX_ALLOWED_IPS = 100;

interface Cidr {
  family: 'ipv4' | 'ipv6';
  address: string;
  prefix: number;
}

/** `203.0.113.0/24`, `2001:db8::/32`, or a single address (a /32 or /128); null when it is neither. */
export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length) return null;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { family, address, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { family, address, prefix } : null;
}

/** The allow-list as stored: each CIDR checked and written `address/prefix`; empty means anywhere (null). */
export function checkAllowedIps(list: readonly string[] | null | undefined): string[] | null {
  if (!list || list.length === 0) return null;
  if (list.length > MAX_ALLOWED_IPS) throw validation('allowed_ips', `at most ${MAX_ALLOWED_IPS} entries`);
  const out: string[] = [];
  list.forEach((text, i) => {
    const cidr = parseCidr(text);
    if (!cidr) throw validation(`allowed_ips.${i}`, `"${text.slice(0, 60)}" is not an IPv4 or IPv6 address or CIDR block (e.g. 203.0.113.0/24)`);
    out.push(`${cidr.address}/${cidr.prefix}`);
  });
  return [...new Set(out)];
}

export function checkRateLimit(limit: RateLimit | null | undefined): RateLimit | null {
  if (!limit) return null;
  for (const field of ['requests', 'window_seconds'] as const) {
    const v = limit[field];
    const { min, max } = RATE_LIMIT_BOUNDS[field];
    if (!Number.isInteger(v) || v < min || v > max) throw validation(`rate_limit.${field}`, `must be a whole number from ${min} to ${max}`);
  }
  return { requests: limit.requests, window_seconds: limit.window_seconds };
}

/** A compiled allow-list: each stored CIDR parsed once, as lib/net keeps networks. */
export type AllowList = Network[];

/** The stored CIDRs as one list to ask; built once per cached key. */
export function compileAllowList(cidrs: readonly string[]): AllowList {
  const list: AllowList = [];
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (cidr) list.push([ipaddr.parse(cidr.address), cidr.prefix]);
  }
  return list;
}

/**
 * Whether the address is in the list; an IPv4 client seen as `::ffff:a.b.c.d` counts as its IPv4
 * address, and a rule takes only clients of its own family. node:net decides what an address is:
 * ipaddr.js alone also reads shorthands such as `127.1`.
 */
export function addressAllowed(list: AllowList, ip: string): boolean {
  const address = isIP(ip) ? parseAddress(ip) : null;
  return address !== null && inNetworks(address, list);
}
