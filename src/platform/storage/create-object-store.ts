// Picks the object store the configuration names: files under the data dir, or an S3-compatible bucket.
import { join } from 'node:path';
import type { StorageConfig } from '../../lib/config.js';
import type { ObjectStore } from './object-store.js';
import { FsObjectStore } from './fs-object-store.js';
import { S3ObjectStore } from './s3-object-store.js';

export function createObjectStore(storage: StorageConfig, dataDir: string): ObjectStore {
  if (storage.kind === 's3') return new S3ObjectStore(storage);
  return new FsObjectStore(join(dataDir, 'objects'));
}
