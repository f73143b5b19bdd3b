import { describe, expect, it } from 'vitest';
import { throttleKey } from '../../../src/lib/net/networks.js';

describe('throttleKey', () => {
  it('keeps IPv4 as it is and counts IPv6 by its /64', () => {
    expect(throttleKey('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(throttleKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(throttleKey('unknown')).toBe('unknown');
  });
});
