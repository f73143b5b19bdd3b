import { describe, expect, it, vi } from 'vitest';
import { CacheRegistry, type CacheFact } from '../../../src/lib/cache/index.js';

const user = (id: string): CacheFact => ({ kind: 'user', id });
const key = (id: string): CacheFact => ({ kind: 'key', id });

/** A registry on a clock the test moves. */
function clocked() {
  let now = 1_000;
  return { registry: new CacheRegistry({ now: () => now }), tick: (ms: number) => (now += ms) };
}

describe('CacheRegistry', () => {
  it('registers each cache under a unique name and checks its bounds', async () => {
    const registry = new CacheRegistry();
    registry.create<string, number>('a', { max: 2 });
    expect(() => registry.create<string, number>('a', { max: 2 })).toThrow(/registered already/);
    expect(() => registry.create<string, number>('b', { max: 0 })).toThrow(/max/);
    expect(() => registry.create<string, number>('c', { max: 1, ttlMs: 0 })).toThrow(/ttlMs/);
    expect(registry.describe()).toEqual([{ name: 'a', max: 2, ttlMs: null, size: 0 }]);
  });

  it('keeps at most max entries, the least recently used leaving first', async () => {
    const cache = new CacheRegistry().create<string, number>('bounded', { max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // now b is the least recently used
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual([1, 3, 2]);
  });

  it('drops entries past their staleness bound, and a shorter per-entry ttl never outlives it', async () => {
    const { registry, tick } = clocked();
    const cache = registry.create<string, string>('ttl', { max: 10, ttlMs: 1000 });
    cache.set('long', 'x');
    cache.set('short', 'y', { ttlMs: 100 });
    cache.set('capped', 'z', { ttlMs: 60_000 });
    tick(150);
    expect([cache.get('long'), cache.get('short'), cache.get('capped')]).toEqual(['x', undefined, 'z']);
    tick(900);
    expect([cache.get('long'), cache.get('capped')]).toEqual([undefined, undefined]);
  });

  it('forgets a fact in every cache whose entries it tags, and nothing else', async () => {
    const registry = new CacheRegistry();
    const sessions = registry.create<string, { userId: string }>('sessions', { max: 10, facts: (_sid, s) => [user(s.userId)] });
    const keys = registry.create<string, { id: string; userId: string }>('keys', { max: 10, facts: (_h, k) => [key(k.id), user(k.userId)] });
    const untagged = registry.create<string, string>('untagged', { max: 10 });
    sessions.set('s1', { userId: 'u1' });
    sessions.set('s2', { userId: 'u2' });
    keys.set('h1', { id: 'k1', userId: 'u1' });
    keys.set('h2', { id: 'k2', userId: 'u2' });
    untagged.set('x', 'u1');

    await registry.forget([user('u1')]);
    expect([sessions.has('s1'), sessions.has('s2'), keys.has('h1'), keys.has('h2'), untagged.has('x')]).toEqual([false, true, false, true, true]);

    await registry.forget([key('k2')]);
    expect([sessions.has('s2'), keys.has('h2')]).toEqual([true, false]);
  });

  it('tags a replaced entry with its new facts only', async () => {
    const registry = new CacheRegistry();
    const cache = registry.create<string, string>('owners', { max: 10, facts: (_k, owner) => [user(owner)] });
    cache.set('h', 'u1');
    cache.set('h', 'u2');
    await registry.forget([user('u1')]);
    expect(cache.get('h')).toBe('u2');
    await registry.forget([user('u2')]);
    expect(cache.has('h')).toBe(false);
  });

  it('forgetAll empties every cache', async () => {
    const registry = new CacheRegistry();
    const a = registry.create<string, number>('a', { max: 10, facts: () => [user('u')] });
    const b = registry.create<string, number>('b', { max: 10 });
    a.set('1', 1);
    b.set('2', 2);
    registry.forgetAll();
    expect([a.size, b.size]).toEqual([0, 0]);
    a.set('3', 3);
    await registry.forget([user('u')]);
    expect(a.size).toBe(0);
  });

  it('tells forget listeners what was forgotten and where it came from, until they unsubscribe', async () => {
    const registry = new CacheRegistry();
    const heard: unknown[] = [];
    const stop = registry.onForget((facts, origin) => {
      heard.push([facts, origin]);
    });
    await registry.forget([user('u1'), key('k1')]);
    await registry.forget([user('u2')], 'peer');
    await registry.forget([]);
    registry.forgetAll();
    stop();
    await registry.forget([user('u3')]);
    expect(heard).toEqual([
      [[user('u1'), key('k1')], 'local'],
      [[user('u2')], 'peer'],
    ]);
  });

  it('forgets even when a listener fails, and reports the failure', async () => {
    const onListenerError = vi.fn();
    const registry = new CacheRegistry({ onListenerError });
    const cache = registry.create<string, string>('c', { max: 10, facts: (_k, v) => [user(v)] });
    cache.set('a', 'u1');
    const later = vi.fn();
    registry.onForget(() => {
      throw new Error('relay down');
    });
    registry.onForget(later);
    await registry.forget([user('u1')]);
    expect(cache.has('a')).toBe(false);
    expect(onListenerError).toHaveBeenCalledOnce();
    expect(later).toHaveBeenCalledOnce();
  });

  it('settles a forget once every listener has (the peers were told), and never rejects', async () => {
    const onListenerError = vi.fn();
    const registry = new CacheRegistry({ onListenerError });
    const cache = registry.create<string, string>('c', { max: 10, facts: (_k, v) => [user(v)] });
    cache.set('a', 'u1');
    let told!: () => void;
    registry.onForget(() => new Promise<void>((r) => (told = r)));
    registry.onForget(() => Promise.reject(new Error('database down')));
    let settled = false;
    const forgotten = registry.forget([user('u1')]).then(() => (settled = true));
    expect(cache.has('a')).toBe(false); // dropped here at once
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // still waiting for the first listener
    told();
    await forgotten;
    expect(onListenerError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database down' }));
  });

  it('keeps null values (a known absence) apart from misses', async () => {
    const cache = new CacheRegistry().create<string, string | null>('absences', { max: 10 });
    cache.set('gone', null);
    expect([cache.has('gone'), cache.get('gone'), cache.get('never')]).toEqual([true, null, undefined]);
  });
});

describe('Cache.load', () => {
  it('shares one loader call among concurrent loads and keeps the value', async () => {
    const cache = new CacheRegistry().create<string, number>('loads', { max: 10 });
    let calls = 0;
    const loader = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      return 42;
    };
    expect(await Promise.all([cache.load('k', loader), cache.load('k', loader)])).toEqual([42, 42]);
    expect(await cache.load('k', loader)).toBe(42);
    expect(calls).toBe(1);
  });

  it('keeps neither undefined nor failures', async () => {
    const cache = new CacheRegistry().create<string, number>('misses', { max: 10 });
    expect(await cache.load('none', async () => undefined)).toBeUndefined();
    expect(cache.has('none')).toBe(false);
    await expect(cache.load('bad', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.has('bad')).toBe(false);
    expect(await cache.load('bad', async () => 7)).toBe(7);
    // A loader that throws before it awaits anything fails the same way.
    await expect(
      cache.load('sync', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await cache.load('sync', async () => 8)).toBe(8);
  });

  it('does not keep a value loaded while a forget ran, and starts afresh for later callers', async () => {
    const registry = new CacheRegistry();
    const cache = registry.create<string, string>('racy', { max: 10, facts: (_k, v) => [user(v)] });
    let release!: () => void;
    const slow = cache.load('k', () => new Promise<string>((r) => (release = () => r('before'))));
    await registry.forget([key('anything')]);
    const fresh = cache.load('k', async () => 'after');
    release();
    expect(await slow).toBe('before');
    expect(await fresh).toBe('after');
    expect(cache.get('k')).toBe('after');
  });
});
