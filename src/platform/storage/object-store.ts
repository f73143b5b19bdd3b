// Where the platform keeps binary objects (recorded JPEGs, plate images, rendered media): one small
// interface with a filesystem store under the data dir (the default) and an S3-compatible store.
// Keys are relative, `/`-separated paths made by the platform itself (never from user input as is).
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
}

export interface ObjectStore {
  /** `fs` or `s3`: shown by diagnostics, never used to branch on. */
  readonly kind: string;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none under `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** The whole object in memory, or null. For small objects (thumbnails, plate crops). */
  getBytes(key: string): Promise<Buffer | null>;
  /** Removes the objects; keys that do not exist are ignored. */
  delete(keys: readonly string[]): Promise<void>;
}

const SAFE_KEY = /^(?!\/)(?!.*\/\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._\-/]{1,512}$/;

/** Refuses keys that could leave the store's root (absolute, `..`, empty segments, odd characters). */
export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`bad object key ${JSON.stringify(key)}`);
  return key;
}

const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', mp4: 'video/mp4', json: 'application/json' };

/** The content type a key's extension names: what the `fs` store serves, which keeps none of its own. */
export const contentTypeOf = (key: string) => TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
