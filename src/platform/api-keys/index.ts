// What other features use of API keys: the key store and guard, key records and the explain request.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { ApiKeyRecord, statusOf, toApiKeyRecord } from './api-key-record.js';
export { keyCounts, keyRowById, keyRowByIdOrThrow, keyStatesOf, projectExidsOfKeys, revokeKeyRow, revokeKeysOf, searchKeys } from './api-keys-repository.js';
export type { ExplainRequest } from './explain-request.js';
export { KeyGuard } from './key-guard.js';
export { addressAllowed, compileAllowList } from './key-limits.js';
export { KeyStore } from './key-store.js';
export type { ActiveKey } from './key-store.js';
