// Queries behind API-key management. Only hashes are ever written.
import type { Db } from '../../lib/db/index.js';
import type { ApiKeysTable } from '../../lib/db/schema.js';

export async function projectExidsOfKeys(db: Db, keyIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(keyIds.map((id) => [id, []]));
  if (keyIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('api_key_projects')
    .innerJoin('projects', 'projects.id', 'api_key_projects.project_id')
    .select(['api_key_projects.api_key_id as key_id', 'projects.exid as exid'])
    .where('api_key_projects.api_key_id', 'in', keyIds)
    .orderBy('projects.exid')
    .execute();
  for (const r of rows) out.get(r.key_id)?.push(r.exid);
  return out;
}

export const listKeyRows = (db: Db, userId: string) =>
  db.kysely.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();

export const findKeyRow = (db: Db, userId: string, id: string) =>
  db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export async function insertKey(db: Db, row: ApiKeysTable, projectIds: string[]): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('api_keys').values(row).execute();
    if (projectIds.length) await trx.insertInto('api_key_projects').values(projectIds.map((project_id) => ({ api_key_id: row.id, project_id }))).execute();
  });
}

export async function updateKey(db: Db, id: string, set: Partial<ApiKeysTable>, projectIds?: string[]): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('api_keys').set(set).where('id', '=', id).execute();
    if (projectIds) {
      await trx.deleteFrom('api_key_projects').where('api_key_id', '=', id).execute();
      if (projectIds.length) await trx.insertInto('api_key_projects').values(projectIds.map((project_id) => ({ api_key_id: id, project_id }))).execute();
    }
  });
}

export const deleteKeyRow = (db: Db, id: string) => db.kysely.deleteFrom('api_keys').where('id', '=', id).execute();

/** Internal ids of the given project exids that the person is a member of. */
export async function memberProjectIds(db: Db, userId: string, exids: string[]): Promise<Map<string, string>> {
  if (exids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('projects')
    .innerJoin('project_members', 'project_members.project_id', 'projects.id')
    .select(['projects.id', 'projects.exid'])
    .where('project_members.user_id', '=', userId)
    .where('projects.exid', 'in', exids)
    .execute();
  return new Map(rows.map((r) => [r.exid, r.id]));
}
