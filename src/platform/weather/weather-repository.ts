// Queries behind the weather: the cameras' positions, the project's time zone, and the cache.
import type { Db } from '../../lib/db/index.js';

export const cameraPositions = (db: Db, projectId: string) =>
  db.kysely.selectFrom('cameras').select(['lat', 'lng']).where('project_id', '=', projectId).where('lat', 'is not', null).where('lng', 'is not', null).execute();

export const projectTimezone = async (db: Db, projectId: string) =>
  (await db.kysely.selectFrom('projects').select('timezone').where('id', '=', projectId).executeTakeFirst())?.timezone;

export async function cached(db: Db, projectId: string, keys: string[]) {
  if (keys.length === 0) return [];
  return db.kysely.selectFrom('weather_cache').select(['key', 'payload', 'fetched_at']).where('project_id', '=', projectId).where('key', 'in', keys).execute();
}

/** Writes one entry, replacing what was there. */
export async function store(db: Db, projectId: string, key: string, payload: unknown, fetchedAt: string): Promise<void> {
  const text = JSON.stringify(payload);
  await db.kysely
    .insertInto('weather_cache')
    .values({ project_id: projectId, key, payload: text, fetched_at: fetchedAt })
    .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ payload: text, fetched_at: fetchedAt }))
    .execute();
}
