// Every in-memory cache of an app, built on lru-cache: each one bounded (max entries, least recently
// used leave first), with an optional staleness bound (ttl), and registered by a unique name. An
// entry is dropped by its bound, its ttl, or `forget` of a fact it was derived from: callers cannot
// delete or clear entries themselves (docs/architecture.md, Caches).
import { LRUCache } from 'lru-cache';
import { type CacheFact, factKey } from './cache-fact.js';

export interface CacheOptions<K, V> {
  /** The most entries kept; past it the least recently used leave. */
  max: number;
  /** Staleness bound: an entry leaves this long after it was set. Required for facts that decide access. */
  ttlMs?: number;
  /** The stored facts an entry was derived from (computed on set): forgetting any of them drops it. */
  facts?: (key: K, value: V) => readonly CacheFact[];
}

/** A bounded cache. No delete, no clear: entries leave by bound, ttl or `CacheRegistry.forget`. */
export interface Cache<K, V> {
  readonly name: string;
  readonly size: number;
  get(key: K): V | undefined;
  has(key: K): boolean;
  /** `ttlMs` shortens this entry's life (never past the cache's own bound). */
  set(key: K, value: V, opts?: { ttlMs?: number }): void;
  /**
   * The cached value, else the loader's. Concurrent loads of a key share one loader call. The loaded
   * value is kept unless it is `undefined` (nothing worth remembering: returned, not kept), the loader
   * failed (failures are never kept), or a forget ran meanwhile (the value may predate the change).
   */
  load<R extends V | undefined>(key: K, loader: () => Promise<R>): Promise<V | R>;
}

/** `local`: forgotten by this process's own writer; `peer`: relayed from another node (not to be relayed again). */
export type ForgetOrigin = 'local' | 'peer';
/** Hears a forget; a promise it returns (e.g. telling other nodes) is waited for by `forget`'s caller. */
export type ForgetListener = (facts: readonly CacheFact[], origin: ForgetOrigin) => void | Promise<void>;

export interface CacheDescription {
  name: string;
  max: number;
  ttlMs: number | null;
  size: number;
}

/** Anything but null and undefined, as lru-cache requires of keys. */
type Key = NonNullable<unknown>;

interface Entry<V> {
  value: V;
  facts: readonly string[];
}

interface Loading {
  /** Set when a forget ran during the load: its value is returned but not kept. */
  abandoned: boolean;
  promise?: Promise<unknown>;
}

class RegisteredCache<K extends Key, V> implements Cache<K, V> {
  private readonly lru: LRUCache<K, Entry<V>>;
  /** Fact key → the keys of the entries tagged with it. */
  private readonly tagged = new Map<string, Set<K>>();
  private readonly loading = new Map<K, Loading>();

  constructor(
    readonly name: string,
    private readonly opts: CacheOptions<K, V>,
    now: (() => number) | undefined,
  ) {
    this.lru = new LRUCache<K, Entry<V>>({
      max: opts.max,
      ...(opts.ttlMs ? { ttl: opts.ttlMs } : {}),
      // A given clock is read on every check (no resolution caching), so tests can move it at will.
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
      // Whatever the reason an entry leaves (bound, ttl, replaced, forgotten), its tags go with it.
      dispose: (entry, key) => this.untag(key, entry),
    });
  }

  get size(): number {
    return this.lru.size;
  }

  get(key: K): V | undefined {
    return this.lru.get(key)?.value;
  }

  has(key: K): boolean {
    return this.lru.has(key);
  }

  set(key: K, value: V, opts?: { ttlMs?: number }): void {
    const facts = this.opts.facts ? this.opts.facts(key, value).map(factKey) : [];
    const ttl = opts?.ttlMs === undefined ? undefined : Math.max(1, Math.min(opts.ttlMs, this.opts.ttlMs ?? Number.POSITIVE_INFINITY));
    this.lru.set(key, { value, facts }, ttl === undefined ? undefined : { ttl });
    for (const f of facts) {
      const keys = this.tagged.get(f);
      if (keys) keys.add(key);
      else this.tagged.set(f, new Set([key]));
    }
  }

  load<R extends V | undefined>(key: K, loader: () => Promise<R>): Promise<V | R> {
    const hit = this.lru.get(key);
    if (hit) return Promise.resolve(hit.value);
    const running = this.loading.get(key);
    if (running?.promise) return running.promise as Promise<V | R>;
    const state: Loading = { abandoned: false };
    this.loading.set(key, state);
    const promise = this.run(key, loader, state);
    state.promise = promise;
    return promise;
  }

  private async run<R extends V | undefined>(key: K, loader: () => Promise<R>, state: Loading): Promise<V | R> {
    try {
      const value = await loader();
      if (value !== undefined && !state.abandoned) this.set(key, value as V);
      return value;
    } finally {
      if (this.loading.get(key) === state) this.loading.delete(key);
    }
  }

  /** Drops the entries tagged with any of these fact keys; loads under way are not kept. */
  drop(factKeys: readonly string[]): void {
    this.abandonLoads();
    for (const f of factKeys) {
      const keys = this.tagged.get(f);
      if (keys) for (const key of [...keys]) this.lru.delete(key);
    }
  }

  dropAll(): void {
    this.abandonLoads();
    this.lru.clear();
    this.tagged.clear();
  }

  describe(): CacheDescription {
    return { name: this.name, max: this.opts.max, ttlMs: this.opts.ttlMs ?? null, size: this.lru.size };
  }

  private abandonLoads(): void {
    for (const l of this.loading.values()) l.abandoned = true;
    this.loading.clear();
  }

  private untag(key: K, entry: Entry<V>): void {
    for (const f of entry.facts) {
      const keys = this.tagged.get(f);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.tagged.delete(f);
    }
  }
}

export interface CacheRegistryOptions {
  /** The clock ttls are measured with (tests); lru-cache's own otherwise. */
  now?: () => number;
  /** Where a forget listener's failure goes; the forget itself has happened already. */
  onListenerError?: (err: unknown) => void;
}

/** The caches of one app (one per process and app): creates them, and forgets facts across all of them. */
export class CacheRegistry {
  private readonly caches = new Map<string, RegisteredCache<Key, unknown>>();
  private readonly listeners = new Set<ForgetListener>();

  constructor(private readonly opts: CacheRegistryOptions = {}) {}

  create<K extends Key, V extends NonNullable<unknown> | null>(name: string, options: CacheOptions<K, V>): Cache<K, V> {
    if (this.caches.has(name)) throw new Error(`a cache named ${name} is registered already`);
    if (!Number.isInteger(options.max) || options.max < 1) throw new Error(`cache ${name}: max must be a positive integer`);
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) throw new Error(`cache ${name}: ttlMs must be positive`);
    const cache = new RegisteredCache<K, V>(name, options, this.opts.now);
    this.caches.set(name, cache as unknown as RegisteredCache<Key, unknown>);
    return cache;
  }

  /**
   * The one way a cached fact is dropped: every entry, in every cache, tagged with any of `facts`.
   * Called where the change is made, after it is written. The entries are gone when this returns;
   * the promise settles once every listener has (the other nodes have been told: docs/deploy.md,
   * Cache invalidation across nodes), so a change awaits it before answering. It never rejects.
   */
  forget(facts: readonly CacheFact[], origin: ForgetOrigin = 'local'): Promise<void> {
    if (facts.length === 0) return Promise.resolve();
    const keys = facts.map(factKey);
    for (const cache of this.caches.values()) cache.drop(keys);
    const onError = this.opts.onListenerError ?? ((e: unknown) => process.emitWarning(e as Error));
    const pending: Promise<void>[] = [];
    for (const listener of this.listeners) {
      try {
        const told = listener(facts, origin);
        if (told) pending.push(told.catch(onError));
      } catch (err) {
        onError(err);
      }
    }
    return pending.length === 0 ? Promise.resolve() : Promise.all(pending).then(() => {});
  }

  /** Drops every entry of every cache (e.g. after losing the connection other nodes' forgets come by). */
  forgetAll(): void {
    for (const cache of this.caches.values()) cache.dropAll();
  }

  /** Hears every `forget` (not `forgetAll`), e.g. to pass it on to other nodes (returning when done); returns the unsubscribe. */
  onForget(listener: ForgetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Name, bounds and current size of every cache. */
  describe(): CacheDescription[] {
    return [...this.caches.values()].map((c) => c.describe());
  }
}
