// The weather_cache table: forecasts and observations fetched per project, by key.
import type { PlatformDb } from '../database.js';

export async function cached(db: PlatformDb, projectId: string, keys: string[]) {
  if (keys.length === 0) return [];
  return db.kysely.selectFrom('weather_cache').select(['key', 'payload', 'fetched_at']).where('project_id', '=', projectId).where('key', 'in', keys).execute();
}

/** Writes one entry, replacing what was there. */
export async function store(db: PlatformDb, projectId: string, key: string, payload: unknown, fetchedAt: string): Promise<void> {
  const text = JSON.stringify(payload);
  await db.kysely
    .insertInto('weather_cache')
    .values({ project_id: projectId, key, payload: text, fetched_at: fetchedAt })
    .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ payload: text, fetched_at: fetchedAt }))
    .execute();
}
