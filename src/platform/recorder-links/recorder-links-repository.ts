// Queries behind site links: the links of a project, pairing (one conditional update, so a code is used
// once), the holding node's writes, the devices each link shares, and the recorders' events.
import type { PlatformDb } from '../database.js';
import type { RecorderEventsTable, RecorderLinkDevicesTable, RecorderLinksTable } from './recorder-links-tables.js';

export const insertLink = (db: PlatformDb, row: RecorderLinksTable) => db.kysely.insertInto('recorder_links').values(row).execute();

export const linksOfProject = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('recorder_links').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export const linkById = (db: PlatformDb, id: string) => db.kysely.selectFrom('recorder_links').selectAll().where('id', '=', id).executeTakeFirst();

export const linkByCredentialHash = (db: PlatformDb, hash: string) =>
  db.kysely.selectFrom('recorder_links').selectAll().where('credential_hash', '=', hash).executeTakeFirst();

export const linkByCodeHash = (db: PlatformDb, hash: string) =>
  db.kysely.selectFrom('recorder_links').select(['id', 'code_expires_at', 'revoked_at']).where('code_hash', '=', hash).executeTakeFirst();

/** Uses the code: true when this call did (the code was there, unexpired, and the link not revoked). */
export async function pair(db: PlatformDb, codeHash: string, now: string, set: { credential_hash: string; recorder_name: string | null }): Promise<boolean> {
  const res = await db.kysely
    .updateTable('recorder_links')
    .set({ ...set, code_hash: null, code_expires_at: null, paired_at: now })
    .where('code_hash', '=', codeHash)
    .where('code_expires_at', '>', now)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function revokeLink(db: PlatformDb, projectId: string, id: string, now: string): Promise<boolean> {
  const res = await db.kysely
    .updateTable('recorder_links')
    .set({ revoked_at: now, code_hash: null, code_expires_at: null })
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** This node now holds the link's connection (a later connection anywhere replaces it). */
export const holdLink = (
  db: PlatformDb,
  id: string,
  set: { connection_id: string; node_id: string; node_url: string | null; last_seen_at: string; recorder_version?: string },
) => db.kysely.updateTable('recorder_links').set(set).where('id', '=', id).execute();

export const touchLink = (db: PlatformDb, id: string, connectionId: string, at: string) =>
  db.kysely.updateTable('recorder_links').set({ last_seen_at: at }).where('id', '=', id).where('connection_id', '=', connectionId).execute();

export const setRecorderVersion = (db: PlatformDb, id: string, version: string) =>
  db.kysely.updateTable('recorder_links').set({ recorder_version: version }).where('id', '=', id).execute();

/** The connection ended: the row says so, unless another connection holds it by now. */
export const releaseLink = (db: PlatformDb, id: string, connectionId: string) =>
  db.kysely
    .updateTable('recorder_links')
    .set({ connection_id: null, node_id: null, node_url: null })
    .where('id', '=', id)
    .where('connection_id', '=', connectionId)
    .execute();

// ---- devices

export const devicesOfLink = (db: PlatformDb, linkId: string) =>
  db.kysely.selectFrom('recorder_link_devices').selectAll().where('link_id', '=', linkId).execute();

export const devicesOfLinks = (db: PlatformDb, linkIds: readonly string[]) =>
  linkIds.length === 0
    ? Promise.resolve([])
    : db.kysely
        .selectFrom('recorder_link_devices')
        .selectAll()
        .where('link_id', 'in', [...linkIds])
        .execute();

export const insertDevice = (db: PlatformDb, row: RecorderLinkDevicesTable) => db.kysely.insertInto('recorder_link_devices').values(row).execute();

export const setDeviceState = (db: PlatformDb, linkId: string, deviceId: string, state: string, at: string) =>
  db.kysely.updateTable('recorder_link_devices').set({ state, updated_at: at }).where('link_id', '=', linkId).where('device_id', '=', deviceId).execute();

/** The link and device a linked camera is, by the camera's id. */
export const deviceOfCamera = (db: PlatformDb, cameraId: string) =>
  db.kysely.selectFrom('recorder_link_devices').select(['link_id', 'device_id']).where('camera_id', '=', cameraId).executeTakeFirst();

// ---- events

/** Inserts an event once: false when the same event (dedupe key) is stored already. */
export async function insertEventOnce(db: PlatformDb, row: RecorderEventsTable): Promise<boolean> {
  const res = await db.kysely
    .insertInto('recorder_events')
    .values(row)
    .onConflict((oc) => oc.columns(['camera_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export const eventByKey = (db: PlatformDb, cameraId: string, dedupeKey: string) =>
  db.kysely.selectFrom('recorder_events').selectAll().where('camera_id', '=', cameraId).where('dedupe_key', '=', dedupeKey).executeTakeFirst();

export const setAnprEvent = (db: PlatformDb, id: string, anprEventId: string) =>
  db.kysely.updateTable('recorder_events').set({ anpr_event_id: anprEventId }).where('id', '=', id).execute();

export interface EventFilter {
  kind?: string;
  from?: string;
  to?: string;
}

export async function eventsOfCamera(db: PlatformDb, cameraId: string, f: EventFilter, page: { limit: number; offset: number }) {
  let q = db.kysely.selectFrom('recorder_events').where('camera_id', '=', cameraId);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.from) q = q.where('at', '>=', f.from);
  if (f.to) q = q.where('at', '<=', f.to);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows };
}
