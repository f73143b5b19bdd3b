// One cache primitive for the whole project (docs/architecture.md, Caches).
export type { CacheFact } from './cache-fact.js';
export {
  type Cache,
  type CacheDescription,
  CacheRegistry,
} from './cache-registry.js';
export { boundedMemo } from './bounded-memo.js';
export {
  cacheChannel,
  decodeForgets,
  encodeForgets,
  InvalidationBus,
  MAX_PAYLOAD_BYTES,
} from './invalidation-bus.js';
