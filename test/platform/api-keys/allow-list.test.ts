// The compiled allow-list (src/platform/api-keys/key-limits.ts, ipaddr.js as in lib/net) agrees with
// node:net's BlockList. A rule takes only clients of its own family.
import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressAllowed, compileAllowList, parseCidr } from '../../../src/platform/api-keys/key-limits.js';

const LISTS = [
  ['203.0.113.0/24'],
  ['10.0.0.0/8', '192.168.1.7'],
  ['0.0.0.0/0'],
  ['2001:db8::/32'],
  ['2001:db8:abcd:12::/63', '::1'],
  ['::/0'],
  ['fe80::1:2:3:4/127', '198.51.100.128/25'],
  ['::ffff:0:0/96'],
];
const ADDRESSES = [
  '203.0.113.1',
  '203.0.114.1',
  '10.255.0.1',
  '11.0.0.1',
  '192.168.1.7',
  '192.168.1.8',
  '198.51.100.200',
  '198.51.100.100',
  '2001:db8::1',
  '2001:db9::1',
  '2001:db8:abcd:13:ffff::1',
  '2001:db8:abcd:14::1',
  '::1',
  '::2',
  'fe80::1:2:3:5',
  'fe80::1:2:3:6',
  '::ffff:203.0.113.9',
  '::ffff:8.8.8.8',
  '1:2:3:4:5:6:7:8',
];

describe('the compiled allow-list', () => {
  it('answers as BlockList does, family by family (an IPv4-mapped client counted as its IPv4 address)', () => {
    for (const cidrs of LISTS) {
      const ours = compileAllowList(cidrs);
      for (const ip of ADDRESSES) {
        const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1] ?? (ip.includes(':') ? undefined : ip);
        const family = v4 ? 'ipv4' : 'ipv6';
        // BlockList also lets IPv6 rules take IPv4 clients; here a rule only takes its own family.
        const expected = cidrs.some((c) => {
          const p = parseCidr(c)!;
          if (p.family !== family) return false;
          const one = new BlockList();
          one.addSubnet(p.address, p.prefix, p.family);
          return one.check(v4 ?? ip, family);
        });
        expect(addressAllowed(ours, ip), `${ip} in ${cidrs.join(', ')}`).toBe(expected);
      }
    }
  });

  it('parses CIDRs strictly', () => {
    for (const bad of ['203.0.113.0/33', '1.2.3/24', '2001:db8::/129', 'x', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/ 8', ''])
      expect(parseCidr(bad), bad).toBeNull();
    expect(parseCidr('2001:db8::/32')).toEqual({ family: 'ipv6', address: '2001:db8::', prefix: 32 });
  });

  it('counts an IPv4-mapped client as its IPv4 address however it is written, and reads only real addresses', () => {
    const list = compileAllowList(['203.0.113.0/24', '127.0.0.0/8']);
    expect(addressAllowed(list, '::ffff:cb00:7109')).toBe(true);
    for (const loose of ['127.1', '0x7f000001', '2130706433', '', 'x']) expect(addressAllowed(list, loose), loose).toBe(false);
  });
});
