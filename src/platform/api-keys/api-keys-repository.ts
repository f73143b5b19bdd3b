// The api_keys and api_key_projects tables: keys (only hashes are ever written) and the projects each is
// limited to.
import type { PlatformDb } from '../database.js';
import type { ApiKeysTable } from './api-keys-tables.js';
import { pageOffset } from '../../lib/http/pagination.js';
import { projectsOfMemberAmong } from '../members/index.js';
import { projectExidsOf, projectRefsByExids } from '../projects/index.js';

/** The exids of each key's projects, in exid order. */
export async function projectExidsOfKeys(db: PlatformDb, keyIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(keyIds.map((id) => [id, []]));
  if (keyIds.length === 0) return out;
  const rows = await db.kysely.selectFrom('api_key_projects').select(['api_key_id', 'project_id']).where('api_key_id', 'in', keyIds).execute();
  const keysOf = new Map<string, string[]>();
  for (const r of rows) keysOf.set(r.project_id, [...(keysOf.get(r.project_id) ?? []), r.api_key_id]);
  for (const [projectId, exid] of await projectExidsOf(db, [...keysOf.keys()])) {
    for (const keyId of keysOf.get(projectId)!) out.get(keyId)?.push(exid);
  }
  return out;
}

export const listKeyRows = (db: PlatformDb, userId: string) =>
  db.kysely.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();

export const findKeyRow = (db: PlatformDb, userId: string, id: string) =>
  db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export async function insertKey(db: PlatformDb, row: ApiKeysTable, projectIds: string[]): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('api_keys').values(row).execute();
    if (projectIds.length)
      await trx
        .insertInto('api_key_projects')
        .values(projectIds.map((project_id) => ({ api_key_id: row.id, project_id })))
        .execute();
  });
}

export async function updateKey(db: PlatformDb, id: string, set: Partial<ApiKeysTable>, projectIds?: string[]): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('api_keys').set(set).where('id', '=', id).execute();
    if (projectIds) {
      await trx.deleteFrom('api_key_projects').where('api_key_id', '=', id).execute();
      if (projectIds.length)
        await trx
          .insertInto('api_key_projects')
          .values(projectIds.map((project_id) => ({ api_key_id: id, project_id })))
          .execute();
    }
  });
}

export const deleteKeyRow = (db: PlatformDb, id: string) => db.kysely.deleteFrom('api_keys').where('id', '=', id).execute();

/** Internal ids of the given project exids that the person is a member of. */
export async function memberProjectIds(db: PlatformDb, userId: string, exids: string[]): Promise<Map<string, string>> {
  if (exids.length === 0) return new Map();
  const projects = await projectRefsByExids(db, exids);
  const member = await projectsOfMemberAmong(
    db,
    userId,
    projects.map((p) => p.id),
  );
  return new Map(projects.filter((p) => member.has(p.id)).map((p) => [p.exid, p.id]));
}

/** Takes the project off every key of the person (who left the project). */
export const dropProjectFromKeysOf = (db: PlatformDb, userId: string, projectId: string) =>
  db.kysely
    .deleteFrom('api_key_projects')
    .where('project_id', '=', projectId)
    .where('api_key_id', 'in', db.kysely.selectFrom('api_keys').select('id').where('user_id', '=', userId))
    .execute();

/** Writes one last-used time for several keys at once. */
export const touchKeys = (db: PlatformDb, ids: string[], at: string) =>
  db.kysely.updateTable('api_keys').set({ last_used_at: at }).where('id', 'in', ids).execute();

/** The key with that hash (hex SHA-256 of its value). */
export const keyByHash = (db: PlatformDb, hash: string) =>
  db.kysely
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'key_hash', 'scopes', 'expires_at', 'revoked_at', 'rate_limit_requests', 'rate_limit_window_seconds', 'allowed_ips'])
    .where('key_hash', '=', hash)
    .executeTakeFirst();

/** The ids of the projects a key is limited to. */
export async function projectIdsOfKey(db: PlatformDb, keyId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('api_key_projects').select('project_id').where('api_key_id', '=', keyId).execute();
  return rows.map((r) => r.project_id);
}

export const keyRowById = (db: PlatformDb, id: string) => db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();

export const keyRowByIdOrThrow = (db: PlatformDb, id: string) => db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Validity of each of the person's keys (revoked, expiry). */
export const keyStatesOf = (db: PlatformDb, userId: string) =>
  db.kysely.selectFrom('api_keys').select(['revoked_at', 'expires_at']).where('user_id', '=', userId).execute();

/** Revokes the key. */
export const revokeKeyRow = (db: PlatformDb, id: string, at: string) =>
  db.kysely.updateTable('api_keys').set({ revoked_at: at, updated_at: at }).where('id', '=', id).execute();

/** Revokes every key of the person not already revoked; how many. */
export async function revokeKeysOf(db: PlatformDb, userId: string, at: string): Promise<number> {
  const res = await db.kysely
    .updateTable('api_keys')
    .set({ revoked_at: at, updated_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface KeySearch {
  userId?: string;
  status?: 'valid' | 'expired' | 'revoked';
  page: number;
  pageSize: number;
}

/** One page of keys (newest first) matching an administrator's filter, and how many match in all. */
export async function searchKeys(db: PlatformDb, s: KeySearch, now: string): Promise<{ total: number; rows: ApiKeysTable[] }> {
  let query = db.kysely.selectFrom('api_keys');
  if (s.userId) query = query.where('user_id', '=', s.userId);
  if (s.status === 'revoked') query = query.where('revoked_at', 'is not', null);
  if (s.status === 'expired') query = query.where('revoked_at', 'is', null).where('expires_at', '<=', now);
  if (s.status === 'valid') query = query.where('revoked_at', 'is', null).where('expires_at', '>', now);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(s.pageSize).offset(pageOffset(s.page, s.pageSize)).execute();
  return { total: Number(total), rows };
}

/** Platform statistics: keys in all, valid now, revoked. */
export async function keyCounts(db: PlatformDb, now: string): Promise<{ total: number; valid: number; revoked: number }> {
  const count = db.kysely.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n'));
  const [total, valid, revoked] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    count.where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow(),
    count.where('revoked_at', 'is not', null).executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), valid: Number(valid.n), revoked: Number(revoked.n) };
}

/**
 * Revokes the keys with any of these hashes that are not revoked yet, in one statement whatever the
 * hashes name (the leak report does the same work for every value); the keys it revoked.
 */
export const revokeKeysByHashes = (db: PlatformDb, hashes: string[], at: string) =>
  db.kysely
    .updateTable('api_keys')
    .set({ revoked_at: at, updated_at: at })
    .where('key_hash', 'in', hashes)
    .where('revoked_at', 'is', null)
    .returning(['id', 'user_id', 'name', 'key_hint'])
    .execute();
