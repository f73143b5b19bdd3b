// Queries behind BIM captures, pending renders, camera parameters and layers. Captures are read by
// (camera_id, captured_at), the migration's unique index: the nearest one for a date is the closer of
// the last one at or before it and the first one after it.
import type { PlatformDb } from '../database.js';
import type { BimCameraParametersTable, BimCapturesTable, BimLayersTable, BimPendingTable, PendingStatus } from './bim-tables.js';

export interface Page {
  limit: number;
  offset: number;
}

// Captures.
export const insertCapture = (db: PlatformDb, row: BimCapturesTable) => db.kysely.insertInto('bim_captures').values(row).execute();

export const captureAt = (db: PlatformDb, cameraId: string, at: string) =>
  db.kysely.selectFrom('bim_captures').selectAll().where('camera_id', '=', cameraId).where('captured_at', '=', at).executeTakeFirst();

export const captureById = (db: PlatformDb, cameraId: string, id: string) =>
  db.kysely.selectFrom('bim_captures').selectAll().where('camera_id', '=', cameraId).where('id', '=', id).executeTakeFirst();

export async function listCaptures(db: PlatformDb, cameraId: string, range: { from?: string; to?: string }, page: Page, order: 'asc' | 'desc') {
  let q = db.kysely.selectFrom('bim_captures').where('camera_id', '=', cameraId);
  if (range.from) q = q.where('captured_at', '>=', range.from);
  if (range.to) q = q.where('captured_at', '<=', range.to);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('captured_at', order).limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows };
}

/** The captures on each side of `at` (at or before, strictly after). */
export async function capturesAround(db: PlatformDb, cameraId: string, at: string) {
  const base = db.kysely.selectFrom('bim_captures').selectAll().where('camera_id', '=', cameraId);
  const before = await base.where('captured_at', '<=', at).orderBy('captured_at', 'desc').limit(1).executeTakeFirst();
  const after = await base.where('captured_at', '>', at).orderBy('captured_at', 'asc').limit(1).executeTakeFirst();
  return { before, after };
}

export const deleteCapture = (db: PlatformDb, id: string) => db.kysely.deleteFrom('bim_captures').where('id', '=', id).execute();

// Pending renders.
export const insertPending = (db: PlatformDb, row: BimPendingTable) => db.kysely.insertInto('bim_pending').values(row).execute();

export const pendingById = (db: PlatformDb, cameraId: string, id: string) =>
  db.kysely.selectFrom('bim_pending').selectAll().where('camera_id', '=', cameraId).where('id', '=', id).executeTakeFirst();

export const updatePending = (db: PlatformDb, id: string, patch: Partial<BimPendingTable>) =>
  db.kysely.updateTable('bim_pending').set(patch).where('id', '=', id).execute();

export function listPending(db: PlatformDb, cameraId: string, statuses: readonly PendingStatus[]) {
  return db.kysely
    .selectFrom('bim_pending')
    .selectAll()
    .where('camera_id', '=', cameraId)
    .where('status', 'in', [...statuses])
    .orderBy('requested_for', 'asc')
    .orderBy('id', 'asc')
    .limit(1000)
    .execute();
}

// Camera parameters.
export const parametersOf = (db: PlatformDb, cameraId: string) =>
  db.kysely.selectFrom('bim_camera_parameters').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();

export async function saveParameters(db: PlatformDb, row: BimCameraParametersTable): Promise<void> {
  const { camera_id: _id, ...rest } = row;
  void _id;
  await db.kysely
    .insertInto('bim_camera_parameters')
    .values(row)
    .onConflict((oc) => oc.column('camera_id').doUpdateSet(rest))
    .execute();
}

// Layers.
export const insertLayer = (db: PlatformDb, row: BimLayersTable) => db.kysely.insertInto('bim_layers').values(row).execute();

export const layerById = (db: PlatformDb, cameraId: string, id: string) =>
  db.kysely.selectFrom('bim_layers').selectAll().where('camera_id', '=', cameraId).where('id', '=', id).executeTakeFirst();

export const listLayers = (db: PlatformDb, cameraId: string) =>
  db.kysely.selectFrom('bim_layers').selectAll().where('camera_id', '=', cameraId).orderBy('z_index', 'asc').orderBy('id', 'asc').limit(1000).execute();

export const replaceLayer = (db: PlatformDb, id: string, patch: Omit<BimLayersTable, 'id' | 'camera_id' | 'created_by' | 'created_at'>) =>
  db.kysely.updateTable('bim_layers').set(patch).where('id', '=', id).execute();

export const deleteLayer = (db: PlatformDb, id: string) => db.kysely.deleteFrom('bim_layers').where('id', '=', id).execute();

/** Every object key the camera's BIM rows name (for the deletion hook). */
export async function objectKeysOf(db: PlatformDb, cameraId: string): Promise<string[]> {
  const captures = await db.kysely.selectFrom('bim_captures').select('image_key').where('camera_id', '=', cameraId).execute();
  const layers = await db.kysely.selectFrom('bim_layers').select('image_key').where('camera_id', '=', cameraId).execute();
  return [...captures, ...layers].map((r) => r.image_key);
}
