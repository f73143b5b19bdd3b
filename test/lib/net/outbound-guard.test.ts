// The outbound guard: every class of address a tenant's URL must not reach is refused by default, an
// opted-in network is reachable, the platform's own ports never are, a name is checked once and the
// connection goes to the checked address, and a redirect into a refused address is not followed.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { guardedDispatcher, pinnedAgent } from '../../../src/lib/net/guarded-http.js';
import { parseNetworks } from '../../../src/lib/net/networks.js';
import { isOutboundRefused, OutboundGuard, type ResolvedAddress } from '../../../src/lib/net/outbound-guard.js';

const refusedBy = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a refusal').not.toBeNull();
  expect(isOutboundRefused(err)).toBe(true);
  // HTTP clients wrap it ("fetch failed"); the refusal itself says nothing more.
  let e = err as Error & { cause?: Error };
  while (e.message !== 'refused by policy' && e.cause) e = e.cause as Error & { cause?: Error };
  expect(e.message).toBe('refused by policy');
};

/** A resolver answering from a table, counting its calls. */
function tableResolver(table: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const n = calls.filter((c) => c === host).length;
    const list = answers[Math.min(n, answers.length) - 1]!;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

let server: Server;
let port: number;
let hits: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    }
    if (req.url === '/to-private') {
      res.writeHead(302, { location: `http://10.0.0.5:${port}/secret` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('what is refused by default', () => {
  const guard = new OutboundGuard();
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback elsewhere in 127/8', '127.1.2.3'],
    ['IPv6 loopback', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12 (top)', '172.31.255.254'],
    ['private 192.168/16', '192.168.1.10'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 link-local', 'fe80::1'],
    ['unique-local IPv6', 'fc00::1'],
    ['unique-local IPv6 fd00::/8', 'fd12:3456::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['multicast', '224.0.0.1'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['carrier-grade NAT 100.64/10', '100.64.0.1'],
    ['NAT64 carrying a private address', '64:ff9b::a00:1'],
    ['IPv4-compatible loopback (deprecated ::/96)', '::127.0.0.1'],
    ['IPv4-compatible metadata (deprecated ::/96)', '::a9fe:a9fe'],
    ['IPv6 outside global unicast 2000::/3', '4000::1'],
  ])('%s (%s)', async (_what, address) => {
    await refusedBy(guard.check(address, 80));
    await refusedBy(guard.checkUrl(`http://${address.includes(':') ? `[${address}]` : address}:8080/x`));
  });

  it('a host name resolving to loopback (localhost)', async () => {
    await refusedBy(guard.check('localhost', 80));
    await refusedBy(guard.checkUrl('http://LOCALHOST./snap.jpg'));
  });

  it('a name with one public and one private address', async () => {
    const { resolve } = tableResolver({ 'mixed.test': [['93.184.216.34', '10.0.0.1']] });
    await refusedBy(new OutboundGuard({ resolve }).check('mixed.test', 80));
  });

  it('public addresses pass', async () => {
    expect(await guard.check('93.184.216.34', 80)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await guard.check('2606:4700::1', 443)).toEqual({ address: '2606:4700::1', family: 6 });
  });
});

describe('opted-in networks', () => {
  const guard = new OutboundGuard({ allowedNetworks: parseNetworks('192.168.10.0/24, 10.0.0.5/32,127.0.0.1/32,fd00::/8') });

  it('allows addresses inside them, and only those', async () => {
    expect((await guard.check('192.168.10.7', 80)).address).toBe('192.168.10.7');
    expect((await guard.check('10.0.0.5', 554)).address).toBe('10.0.0.5');
    expect((await guard.check('::ffff:127.0.0.1', 80)).address).toBe('127.0.0.1');
    expect((await guard.check('fd00::20', 80)).address).toBe('fd00::20');
    await refusedBy(guard.check('192.168.11.7', 80));
    await refusedBy(guard.check('10.0.0.6', 80));
    await refusedBy(guard.check('127.0.0.2', 80));
    await refusedBy(guard.check('169.254.169.254', 80));
  });

  it('never opens unspecified, multicast or broadcast, whatever is opted in', async () => {
    const wide = new OutboundGuard({ allowedNetworks: parseNetworks('0.0.0.0/0,::/0') });
    expect((await wide.check('10.9.9.9', 80)).address).toBe('10.9.9.9');
    await refusedBy(wide.check('0.0.0.0', 80));
    await refusedBy(wide.check('224.0.0.1', 80));
    await refusedBy(wide.check('255.255.255.255', 80));
  });

  it('refuses a bad network at start, naming it', () => {
    expect(() => parseNetworks('192.168.10.0/24,192.168.300.0/24')).toThrow(/OVERLOOK_ALLOWED_NETWORKS: "192.168.300.0\/24" is not a network in CIDR form/);
    expect(() => parseNetworks('10.0.0.0/33')).toThrow(/OVERLOOK_ALLOWED_NETWORKS/);
    expect(() => parseNetworks('lan')).toThrow(/OVERLOOK_ALLOWED_NETWORKS: "lan"/);
    const dataDir = mkdtempSync(join(tmpdir(), 'overlook-net-'));
    try {
      expect(() => platformConfig({ dataDir }, { OVERLOOK_ALLOWED_NETWORKS: '10.0.0.0/8,nope' })).toThrow(/OVERLOOK_ALLOWED_NETWORKS: "nope"/);
      expect(platformConfig({ dataDir }, { OVERLOOK_ALLOWED_NETWORKS: '10.0.0.0/8' }).outbound.allowedNetworks).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the platform's own addresses", () => {
  const local = parseNetworks('127.0.0.0/8');

  it('its own port is refused even with its network opted in; another port is not', async () => {
    const guard = new OutboundGuard({ allowedNetworks: local, own: [{ host: '127.0.0.1', port: 3000 }] });
    await refusedBy(guard.check('127.0.0.1', 3000));
    await refusedBy(guard.check('::ffff:127.0.0.1', 3000));
    expect((await guard.check('127.0.0.1', 3001)).address).toBe('127.0.0.1');
  });

  it('listening on every address: every local address on that port is its own', async () => {
    const guard = new OutboundGuard({ allowedNetworks: parseNetworks('0.0.0.0/0'), own: [{ host: '0.0.0.0', port: 3000 }] });
    await refusedBy(guard.check('127.0.0.1', 3000));
    await refusedBy(guard.check('127.0.0.53', 3000));
  });

  it('its public URL host and port, by name or by the addresses the name has', async () => {
    const { resolve } = tableResolver({ 'overlook.example.com': [['203.0.113.10']], 'alias.example.com': [['203.0.113.10']] });
    const guard = new OutboundGuard({ own: [{ host: 'overlook.example.com', port: 443 }], allowedNetworks: parseNetworks('203.0.113.0/24'), resolve });
    await refusedBy(guard.checkUrl('https://overlook.example.com/v2/cameras'));
    await refusedBy(guard.checkUrl('https://alias.example.com/'));
    await refusedBy(guard.check('203.0.113.10', 443));
    expect((await guard.check('203.0.113.10', 8443)).address).toBe('203.0.113.10');
  });

  it('learns the port it really listens on', async () => {
    const guard = new OutboundGuard({ allowedNetworks: local });
    expect((await guard.check('127.0.0.1', port)).address).toBe('127.0.0.1');
    guard.addOwn({ host: '127.0.0.1', port });
    await refusedBy(guard.check('127.0.0.1', port));
  });
});

describe('connections go to the checked address', () => {
  it('pinUrl puts the checked address in the URL, keeping credentials, port and path', async () => {
    const { resolve, calls } = tableResolver({ 'cam.site.test': [['93.184.216.34'], ['127.0.0.1']] });
    const guard = new OutboundGuard({ resolve });
    expect(await guard.pinUrl('rtsp://u:p%40ss@cam.site.test:8554/live?x=1')).toBe('rtsp://u:p%40ss@93.184.216.34:8554/live?x=1');
    expect(calls).toEqual(['cam.site.test']);
    // Asked again, the name now points at loopback: refused, not passed on.
    await refusedBy(guard.pinUrl('rtsp://cam.site.test/live'));
    const v6 = new OutboundGuard({ resolve: tableResolver({ 'v6.test': [['2001:4860::8888']] }).resolve });
    expect(await v6.pinUrl('rtsp://v6.test/live')).toBe('rtsp://[2001:4860::8888]/live');
  });

  it('a name checked once is not asked again for the connection (a rebinding answer is never used)', async () => {
    // First answer: the allowed address; any later one: the metadata service.
    const { resolve, calls } = tableResolver({ 'rebind.test': [['127.0.0.1'], ['169.254.169.254']] });
    const guard = new OutboundGuard({ allowedNetworks: parseNetworks('127.0.0.1/32'), resolve });
    const agent = await pinnedAgent(guard, 'rebind.test', port, false);
    hits = [];
    for (let i = 0; i < 2; i++) {
      const body = await new Promise<string>((resolveBody, reject) => {
        const req = httpRequest({ host: 'rebind.test', port, path: `/pinned-${i}`, agent }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolveBody(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('hello');
    }
    expect(hits).toEqual(['/pinned-0', '/pinned-1']);
    expect(calls).toEqual(['rebind.test']);
    // The pinned agent goes nowhere else: another port on the same host is refused.
    const other = await new Promise<unknown>((resolveErr) => {
      const req = httpRequest({ host: 'rebind.test', port: port + 1, path: '/', agent }, () => resolveErr(null));
      req.on('error', resolveErr);
      req.end();
    });
    expect(isOutboundRefused(other)).toBe(true);
  });

  it('the dispatcher checks every new connection and connects to what it checked', async () => {
    const { resolve, calls } = tableResolver({ 'cam.test': [['127.0.0.1'], ['10.0.0.9']] });
    const dispatcher = guardedDispatcher(new OutboundGuard({ allowedNetworks: parseNetworks('127.0.0.1/32'), resolve }));
    try {
      hits = [];
      const first = await undiciFetch(`http://cam.test:${port}/first`, { dispatcher, headers: { connection: 'close' } });
      expect(await first.text()).toBe('hello');
      await refusedBy(undiciFetch(`http://cam.test:${port}/second`, { dispatcher }));
      expect(hits).toEqual(['/first']);
      expect(calls).toEqual(['cam.test', 'cam.test']);
    } finally {
      await dispatcher.close();
    }
  });

  it('a redirect from an allowed server into a refused address is not followed', async () => {
    const dispatcher = guardedDispatcher(new OutboundGuard({ allowedNetworks: parseNetworks('127.0.0.1/32') }));
    try {
      hits = [];
      await refusedBy(undiciFetch(`http://127.0.0.1:${port}/to-private`, { dispatcher, redirect: 'follow' }));
      await refusedBy(undiciFetch(`http://127.0.0.1:${port}/to-metadata`, { dispatcher, redirect: 'follow' }));
      expect(hits).toEqual(['/to-private', '/to-metadata']);
    } finally {
      await dispatcher.close();
    }
  });
});
