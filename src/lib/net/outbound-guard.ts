// The one gate for connections the platform makes on a tenant's behalf (camera snapshots, ONVIF, RTSP
// probes, ffmpeg inputs): the name is resolved once, every address it resolves to is checked, and the
// connection goes to the checked address, never to a second lookup a rebinding DNS server could answer
// differently. Deny by default, allow-list by network, the platform's own ports refused even inside an
// allowed network (docs/security.md, Outbound connections). Refusals say only "refused by policy".
import { lookup as dnsLookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { type IpAddress, inNetworks, isPublicUnicast, type Network, parseAddress } from './networks.js';

/** The one message a refusal carries: what is at the address is none of the caller's business. */
export const REFUSED_BY_POLICY = 'refused by policy';

export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor() {
    super(REFUSED_BY_POLICY);
    this.name = 'OutboundRefusedError';
  }
}

/** Whether an error (or one it wraps, as HTTP clients do) is a refusal of the guard. */
export function isOutboundRefused(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefusedError || (e as { code?: unknown }).code === 'OUTBOUND_REFUSED') return true;
  }
  return false;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (tests hand in their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** An address and port the platform itself answers on. */
export interface Endpoint {
  host: string;
  port: number;
}

export interface OutboundGuardOptions {
  /** Networks the operator opted in (OVERLOOK_ALLOWED_NETWORKS). */
  allowedNetworks?: readonly Network[];
  /** The platform's own endpoints (where it listens, its public and node URLs): refused whatever the networks. */
  own?: readonly Endpoint[];
  resolve?: Resolver;
}

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'rtsp:': 554, 'rtsps:': 322 };
/** How long the addresses of the platform's own host names are trusted. */
const OWN_NAMES_MS = 60_000;

const bare = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
const same = (a: IpAddress, b: IpAddress) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

export class OutboundGuard {
  private readonly networks: readonly Network[];
  private readonly own: Endpoint[];
  private readonly resolver: Resolver;
  private readonly ownNames = new Map<string, { at: number; addresses: Promise<IpAddress[]> }>();

  constructor(opts: OutboundGuardOptions = {}) {
    this.networks = opts.allowedNetworks ?? [];
    this.own = [...(opts.own ?? [])];
    this.resolver = opts.resolve ?? systemResolver;
  }

  /** Adds an endpoint the platform answers on (the port it really listens on is known only once it does). */
  addOwn(endpoint: Endpoint): void {
    if (!this.own.some((e) => e.host === endpoint.host && e.port === endpoint.port)) this.own.push(endpoint);
  }

  /**
   * The address to connect to for `hostname:port`: resolved once; refused (OutboundRefusedError) when any
   * address it resolves to is refused. A name that does not resolve throws the resolver's error.
   */
  async check(hostname: string, port: number): Promise<ResolvedAddress> {
    // `example.com.` is `example.com`: one spelling of a name, for the own-host comparison too.
    const host = bare(hostname).toLowerCase().replace(/\.$/, '');
    const literal = parseAddress(host);
    const found: ResolvedAddress[] = literal ? [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }] : await this.resolver(host);
    if (found.length === 0) throw new Error(`${host} has no address`);
    for (const a of found) if (await this.refused(a.address, port, host)) throw new OutboundRefusedError();
    const first = found[0]!;
    const addr = parseAddress(first.address)!;
    return { address: addr.toString(), family: addr.kind() === 'ipv4' ? 4 : 6 };
  }

  /** Checks a URL's host and port; throws OutboundRefusedError when refused. */
  async checkUrl(url: string | URL): Promise<ResolvedAddress> {
    const u = typeof url === 'string' ? new URL(url) : url;
    return this.check(u.hostname, Number(u.port) || DEFAULT_PORTS[u.protocol] || 0);
  }

  /**
   * The URL with its host replaced by the checked address, for programs that resolve names themselves
   * (ffmpeg): they connect to what was checked. Credentials, path and port stay.
   */
  async pinUrl(url: string): Promise<string> {
    const u = new URL(url);
    const { address, family } = await this.checkUrl(u);
    u.hostname = family === 6 ? `[${address}]` : address;
    return u.toString();
  }

  /** Whether an address may not be reached on that port. */
  private async refused(text: string, port: number, hostname: string): Promise<boolean> {
    const address = parseAddress(text);
    if (!address) return true;
    const range = address.range();
    // "This host", group and broadcast addresses are never a camera, whatever was opted in.
    if (range === 'unspecified' || range === 'multicast' || range === 'broadcast') return true;
    if (await this.isOwn(address, port, hostname)) return true;
    return !isPublicUnicast(address) && !inNetworks(address, this.networks);
  }

  /** Whether address:port is where the platform itself answers. */
  private async isOwn(address: IpAddress, port: number, hostname: string): Promise<boolean> {
    for (const e of this.own) {
      if (e.port !== port) continue;
      const host = bare(e.host).toLowerCase();
      if (host === hostname) return true;
      const ip = parseAddress(host);
      if (ip && ip.range() === 'unspecified') {
        if (address.range() === 'loopback' || localAddresses().some((a) => same(a, address))) return true;
      } else if (ip) {
        if (same(ip, address)) return true;
      } else if ((await this.addressesOf(host)).some((a) => same(a, address))) return true;
    }
    return false;
  }

  /** The addresses of one of the platform's own host names, looked up at most once a minute. */
  private addressesOf(host: string): Promise<IpAddress[]> {
    const hit = this.ownNames.get(host);
    if (hit && Date.now() - hit.at < OWN_NAMES_MS) return hit.addresses;
    const addresses = this.resolver(host).then(
      (list) => list.map((a) => parseAddress(a.address)).filter((a): a is IpAddress => a !== null),
      () => [],
    );
    this.ownNames.set(host, { at: Date.now(), addresses });
    return addresses;
  }
}

/** Every address of this machine's interfaces. */
function localAddresses(): IpAddress[] {
  return Object.values(networkInterfaces())
    .flat()
    .map((i) => (i ? parseAddress(i.address.split('%')[0]!) : null))
    .filter((a): a is IpAddress => a !== null);
}

/** The platform's own endpoints from its URLs (public URL, node URL) and listening address. */
export function ownEndpoints(listen: Endpoint | undefined, urls: readonly (string | undefined)[]): Endpoint[] {
  const out: Endpoint[] = listen ? [listen] : [];
  for (const url of urls) {
    if (!url) continue;
    try {
      const u = new URL(url);
      out.push({ host: bare(u.hostname), port: Number(u.port) || DEFAULT_PORTS[u.protocol] || 80 });
    } catch {
      /* not a URL: config reading refuses those */
    }
  }
  return out;
}
