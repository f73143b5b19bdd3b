// Memoisation of pure computed values (Intl formatters, bucket ranges of a local day): the value
// depends on its key alone, so it is never stale and nothing forgets it; only a bound keeps hostile or
// merely varied keys from growing memory. Not part of an app's CacheRegistry (docs/architecture.md, Caches).
import { LRUCache } from 'lru-cache';

/** `memo(key, make)`: the value made for `key` before, else `make()`'s, kept among the last `max` keys. */
export function boundedMemo<V extends NonNullable<unknown>>(max: number): (key: string, make: () => V) => V {
  const lru = new LRUCache<string, V>({ max });
  return (key, make) => {
    let value = lru.get(key);
    if (value === undefined) {
      value = make();
      lru.set(key, value);
    }
    return value;
  };
}
