// One cache primitive for the whole project (docs/architecture.md, Caches).
export type { CacheFact, CacheFactKind } from './cache-fact.js';
export {
  type Cache,
  type CacheDescription,
  type CacheOptions,
  CacheRegistry,
  type CacheRegistryOptions,
  type ForgetListener,
  type ForgetOrigin,
} from './cache-registry.js';
export { boundedMemo } from './bounded-memo.js';
export {
  type BusLog,
  cacheChannel,
  decodeForgets,
  encodeForgets,
  InvalidationBus,
  type InvalidationBusOptions,
  MAX_PAYLOAD_BYTES,
} from './invalidation-bus.js';
