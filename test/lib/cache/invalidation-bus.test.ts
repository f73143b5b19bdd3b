// The messages of the cache invalidation bus (docs/deploy.md): typed, small, split under NOTIFY's limit.
import { describe, expect, it, vi } from 'vitest';
import { type CacheFact, CacheRegistry, cacheChannel, decodeForgets, encodeForgets, InvalidationBus, MAX_PAYLOAD_BYTES } from '../../../src/lib/cache/index.js';

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

  it('a local forget settles only once the database took its NOTIFY (a change answers after its peers were told)', async () => {
    const registry = new CacheRegistry();
    const sent: { payload: string; ack: () => void }[] = [];
    const warn = vi.fn();
    const bus = new InvalidationBus({
      registry,
      connectionString: 'postgres://unused',
      channel: 'overlook_cache',
      publish: (_channel, payload) => new Promise<void>((ack) => sent.push({ payload, ack })),
      log: { info: () => {}, warn },
    });
    let settled = false;
    const forgotten = registry.forget([{ kind: 'key', id: 'k1' }]).then(() => (settled = true));
    expect(sent).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    sent[0]!.ack();
    await forgotten;
    // A peer's forget is applied here and not sent again; a failed send is logged, not thrown.
    await registry.forget([{ kind: 'key', id: 'k2' }], 'peer');
    expect(sent).toHaveLength(1);
    const other = new CacheRegistry();
    const failing = new InvalidationBus({
      registry: other,
      connectionString: 'x',
      channel: 'c',
      publish: () => Promise.reject(new Error('down')),
      log: { info: () => {}, warn },
    });
    await other.forget([{ kind: 'key', id: 'k3' }]);
    expect(warn).toHaveBeenCalledOnce();
    await bus.close();
    await failing.close();
  });
});
