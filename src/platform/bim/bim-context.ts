// What the BIM services share: the database, the upload limits, and the app's object store and cameras.
import type { BimConfig } from '../../lib/config/bim-config.js';
import type { PlatformDb } from '../database.js';
import { ApiError } from '../../lib/errors.js';
import type { CamerasService } from '../cameras/index.js';
import type { ObjectStore, StoredObject } from '../storage/index.js';

export interface BimContext {
  db: PlatformDb;
  limits: BimConfig;
  deps: { storage: ObjectStore; cameras: CamerasService };
}

/** The camera's row id for its exid (404 when there is none). */
export const cameraIdOf = async (ctx: BimContext, exid: string) => (await ctx.deps.cameras.row(exid)).id;

/** A stored BIM image; a row whose object is gone answers 404 rather than a broken body. */
export async function storedImage(ctx: BimContext, key: string, contentType: string): Promise<StoredObject> {
  const object = await ctx.deps.storage.get(key);
  if (!object) throw new ApiError('NOT_FOUND', 'The image of this record is missing from storage');
  return { ...object, contentType };
}

/** Puts the object, runs `write`; when the write fails the object is removed again (no orphans). */
export async function storeThenWrite(ctx: BimContext, key: string, bytes: Buffer, contentType: string, write: () => Promise<unknown>): Promise<void> {
  const storage = ctx.deps.storage;
  await storage.put(key, bytes, contentType);
  try {
    await write();
  } catch (err) {
    await storage.delete([key]).catch(() => undefined);
    throw err;
  }
}
