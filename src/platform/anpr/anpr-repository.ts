// Queries behind ANPR events, ingestion tokens and watch lists. Lists filter on (camera_id, captured_at)
// or (camera_id, plate, captured_at), the two indexes of the migration.
import type { PlatformDb } from '../database.js';
import type { AnprEventsTable, AnprIngestionTokensTable, AnprWatchlistTable, Direction } from './anpr-tables.js';
import type { PlateFilter } from './plate.js';
import { cameraRefsByIds } from '../cameras/index.js';

export interface EventFilter {
  plate?: PlateFilter;
  direction?: Direction;
  from?: string;
  to?: string;
  minConfidence?: number;
}

export interface Page {
  limit: number;
  offset: number;
}

function filtered(db: PlatformDb, cameraId: string, f: EventFilter) {
  let q = db.kysely.selectFrom('anpr_events').where('anpr_events.camera_id', '=', cameraId);
  if (f.plate && 'exact' in f.plate) q = q.where('anpr_events.plate', '=', f.plate.exact);
  // Normalised plates hold only letters and digits, so the prefix needs no LIKE escaping.
  if (f.plate && 'prefix' in f.plate) q = q.where('anpr_events.plate', 'like', `${f.plate.prefix}%`);
  if (f.direction) q = q.where('anpr_events.direction', '=', f.direction);
  if (f.from) q = q.where('anpr_events.captured_at', '>=', f.from);
  if (f.to) q = q.where('anpr_events.captured_at', '<=', f.to);
  if (f.minConfidence !== undefined) q = q.where('anpr_events.confidence', '>=', f.minConfidence);
  return q;
}

export const insertEvent = (db: PlatformDb, row: AnprEventsTable) => db.kysely.insertInto('anpr_events').values(row).execute();

export async function listEvents(db: PlatformDb, cameraId: string, f: EventFilter, page: Page, order: 'asc' | 'desc') {
  const q = filtered(db, cameraId, f);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('captured_at', order).orderBy('id', order).limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows };
}

/** Events whose plate is on the camera's project's watch list, with the list's label. */
export async function listMatched(db: PlatformDb, cameraId: string, projectId: string, f: EventFilter, page: Page, order: 'asc' | 'desc') {
  const q = filtered(db, cameraId, f).innerJoin('anpr_watchlist', (j) =>
    j.onRef('anpr_watchlist.plate', '=', 'anpr_events.plate').on('anpr_watchlist.project_id', '=', projectId),
  );
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll('anpr_events')
    .select('anpr_watchlist.label as watchlist_label')
    .orderBy('anpr_events.captured_at', order)
    .orderBy('anpr_events.id', order)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

export type PlateSort = 'last_seen_desc' | 'last_seen_asc' | 'count_desc' | 'count_asc';

/** Distinct plates with how often and when they were seen. */
export async function listPlates(db: PlatformDb, cameraId: string, f: EventFilter, page: Page, sort: PlateSort) {
  const q = filtered(db, cameraId, f);
  const { total } = await q.select((eb) => eb.fn.count<number>('anpr_events.plate').distinct().as('total')).executeTakeFirstOrThrow();
  let grouped = q
    .select((eb) => [
      'anpr_events.plate',
      eb.fn.countAll<number>().as('count'),
      eb.fn.min<string>('anpr_events.captured_at').as('first_seen'),
      eb.fn.max<string>('anpr_events.captured_at').as('last_seen'),
    ])
    .groupBy('anpr_events.plate');
  grouped =
    sort === 'count_desc' || sort === 'count_asc'
      ? grouped.orderBy((eb) => eb.fn.countAll(), sort === 'count_desc' ? 'desc' : 'asc').orderBy((eb) => eb.fn.max('anpr_events.captured_at'), 'desc')
      : grouped.orderBy((eb) => eb.fn.max('anpr_events.captured_at'), sort === 'last_seen_desc' ? 'desc' : 'asc');
  const rows = await grouped.orderBy('anpr_events.plate').limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows: rows.map((r) => ({ ...r, count: Number(r.count) })) };
}

export const eventById = (db: PlatformDb, cameraId: string, id: string) =>
  db.kysely.selectFrom('anpr_events').selectAll().where('camera_id', '=', cameraId).where('id', '=', id).executeTakeFirst();

/** Object keys of a camera's plate images, a batch at a time (for removing them with the camera). */
export const imageKeysOfCamera = (db: PlatformDb, cameraId: string, after: string, limit: number) =>
  db.kysely
    .selectFrom('anpr_events')
    .select(['id', 'image_key'])
    .where('camera_id', '=', cameraId)
    .where('image_key', 'is not', null)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();

// Ingestion tokens

export const insertToken = (db: PlatformDb, row: AnprIngestionTokensTable) => db.kysely.insertInto('anpr_ingestion_tokens').values(row).execute();

export const tokensOfCamera = (db: PlatformDb, cameraId: string) =>
  db.kysely
    .selectFrom('anpr_ingestion_tokens')
    .select(['id', 'name', 'token_hint', 'created_at', 'last_used_at', 'revoked_at'])
    .where('camera_id', '=', cameraId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

export const tokenOfCamera = (db: PlatformDb, cameraId: string, id: string) =>
  db.kysely.selectFrom('anpr_ingestion_tokens').select(['id', 'revoked_at']).where('camera_id', '=', cameraId).where('id', '=', id).executeTakeFirst();

export const revokeToken = (db: PlatformDb, id: string, at: string) =>
  db.kysely.updateTable('anpr_ingestion_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();

/** The token with that hash and its camera's exid. */
export async function tokenByHash(db: PlatformDb, tokenHash: string) {
  const token = await db.kysely
    .selectFrom('anpr_ingestion_tokens')
    .select(['id', 'token_hash', 'revoked_at', 'last_used_at', 'camera_id'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!token) return undefined;
  const { camera_id, ...rest } = token;
  const camera = (await cameraRefsByIds(db, [camera_id])).get(camera_id);
  return camera && { ...rest, camera_exid: camera.exid };
}

export const touchToken = (db: PlatformDb, id: string, at: string) =>
  db.kysely.updateTable('anpr_ingestion_tokens').set({ last_used_at: at }).where('id', '=', id).execute();

// Watch list

export const watchlistOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('anpr_watchlist').select(['plate', 'label', 'created_at']).where('project_id', '=', projectId).orderBy('plate').execute();

export const watchlistEntry = (db: PlatformDb, projectId: string, plate: string) =>
  db.kysely
    .selectFrom('anpr_watchlist')
    .select(['plate', 'label', 'created_at'])
    .where('project_id', '=', projectId)
    .where('plate', '=', plate)
    .executeTakeFirst();

export async function watchlistLabels(db: PlatformDb, projectId: string, plates: string[]): Promise<Map<string, string>> {
  if (plates.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('anpr_watchlist')
    .select(['plate', 'label'])
    .where('project_id', '=', projectId)
    .where('plate', 'in', plates)
    .execute();
  return new Map(rows.map((r) => [r.plate, r.label]));
}

export const insertWatch = (db: PlatformDb, row: AnprWatchlistTable) => db.kysely.insertInto('anpr_watchlist').values(row).execute();

export const deleteWatch = async (db: PlatformDb, projectId: string, plate: string) =>
  Number((await db.kysely.deleteFrom('anpr_watchlist').where('project_id', '=', projectId).where('plate', '=', plate).executeTakeFirst()).numDeletedRows) > 0;
