// The messages of the cache invalidation bus (docs/deploy.md): typed, small, split under NOTIFY's limit.
import { describe, expect, it } from 'vitest';
import { type CacheFact, cacheChannel, decodeForgets, encodeForgets, MAX_PAYLOAD_BYTES } from '../../../src/lib/cache/index.js';

describe('invalidation messages', () => {
  it('round-trip: the sender and every fact, in order', () => {
    const facts: CacheFact[] = [
      { kind: 'key', id: 'k1' },
      { kind: 'user-roles', id: 'u1' },
    ];
    const payloads = encodeForgets('node-a', facts);
    expect(payloads).toHaveLength(1);
    expect(decodeForgets(payloads[0]!)).toEqual({ node: 'node-a', facts });
  });

  it('a big batch is split into messages under the limit (pg_notify refuses 8000 bytes), none lost', () => {
    const facts: CacheFact[] = Array.from({ length: 2000 }, (_, i) => ({ kind: 'camera', id: `camera-exid-${i}` }));
    const payloads = encodeForgets('node-a', facts);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payloads.flatMap((p) => decodeForgets(p)!.facts)).toEqual(facts);
  });

  it('anything else is not a message', () => {
    for (const p of ['', 'not json', 'null', '{}', '{"v":2,"node":"n","facts":[]}', '{"v":1,"node":"n","facts":[["key"]]}', '{"v":1,"node":1,"facts":[]}']) {
      expect(decodeForgets(p), p).toBeNull();
    }
  });

  it('one channel per schema, a valid identifier however long the schema name', () => {
    expect(cacheChannel()).toBe('overlook_cache');
    expect(cacheChannel('t_abc')).toBe('overlook_cache_t_abc');
    const long = cacheChannel('s'.repeat(63));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).not.toBe(cacheChannel('s'.repeat(62)));
  });
});
