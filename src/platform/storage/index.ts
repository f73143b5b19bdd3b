// What other features use of the object store: its interface.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export type { ObjectStore, StoredObject } from './object-store.js';
export { checkKey, contentTypeOf } from './object-store.js';
export { S3ObjectStore } from './s3-object-store.js';
