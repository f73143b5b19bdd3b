// A key's own limits (docs/access-model.md, Key limits): how many requests it may make per window, and
// the addresses it may be used from. Parsed and checked when a key is created or edited; compiled once
// into an allow-list when the key is loaded into the access layer's cache, so a request only asks it.
import { isIPv4, isIPv6 } from 'node:net';
import { validation } from '../../lib/errors.js';

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

/** A compiled allow-list: plain integer compares per request (node:net's BlockList costs ~20 µs a check). */
export interface AllowList {
  v4: { net: number; mask: number }[];
  v6: { words: number[]; prefix: number }[];
}

const v4ToInt = (ip: string): number => {
  const p = ip.split('.');
  return ((Number(p[0]) << 24) | (Number(p[1]) << 16) | (Number(p[2]) << 8) | Number(p[3])) >>> 0;
};
const v4Mask = (prefix: number): number => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

/** The eight 16-bit words of an IPv6 address (already known to be one), a trailing dotted quad included. */
function v6Words(ip: string): number[] {
  let text = ip.split('%')[0]!;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) !== -1) {
    const n = v4ToInt(text.slice(lastColon + 1));
    tail.push(n >>> 16, n & 0xffff);
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const parts = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const front = parse(parts[0]);
  if (parts.length === 1) return [...front, ...tail];
  const back = [...parse(parts[1]), ...tail];
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The stored CIDRs as one list to ask; built once per cached key. */
export function compileAllowList(cidrs: readonly string[]): AllowList {
  const list: AllowList = { v4: [], v6: [] };
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (!cidr) continue;
    if (cidr.family === 'ipv4') {
      const mask = v4Mask(cidr.prefix);
      list.v4.push({ net: (v4ToInt(cidr.address) & mask) >>> 0, mask });
    } else list.v6.push({ words: v6Words(cidr.address), prefix: cidr.prefix });
  }
  return list;
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function v6InNet(words: number[], net: { words: number[]; prefix: number }): boolean {
  let bits = net.prefix;
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((words[i]! & mask) !== (net.words[i]! & mask)) return false;
  }
  return true;
}

/** Whether the address is in the list; an IPv4 client seen as `::ffff:a.b.c.d` counts as its IPv4 address. */
export function addressAllowed(list: AllowList, ip: string): boolean {
  const v4 = isIPv4(ip) ? ip : MAPPED_V4.exec(ip)?.[1];
  if (v4) {
    const n = v4ToInt(v4);
    return list.v4.some((r) => (n & r.mask) >>> 0 === r.net);
  }
  if (!isIPv6(ip)) return false;
  const words = v6Words(ip);
  return list.v6.some((r) => v6InNet(words, r));
}
