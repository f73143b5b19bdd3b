// The oauth_records table: every record oidc-provider persists (one row per model and id, with the
// lookup columns it asks by), and the clients people register as developer apps (model Client, the
// person in `owner_id`).
import type { PlatformDb } from '../db/database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { OauthRecordsTable } from './oauth-tables.js';

type Liveness = Pick<OauthRecordsTable, 'payload' | 'expires_at' | 'consumed_at'>;

export const deleteRecordsExpiredBefore = (db: PlatformDb, at: string) => db.kysely.deleteFrom('oauth_records').where('expires_at', '<', at).execute();

/** Creates the record, or replaces the `replace` columns of the one there. */
export const upsertRecord = (db: PlatformDb, row: OauthRecordsTable, replace: Partial<OauthRecordsTable>) =>
  db.kysely
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(replace))
    .execute();

/** A record of the model by one of its lookup columns. */
export const recordBy = (db: PlatformDb, model: string, column: 'id' | 'user_code' | 'uid', value: string): Promise<Liveness | undefined> =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .executeTakeFirst();

export const consumeRecord = (db: PlatformDb, model: string, id: string, at: string) =>
  db.kysely.updateTable('oauth_records').set({ consumed_at: at }).where('model', '=', model).where('id', '=', id).execute();

export const deleteRecord = (db: PlatformDb, model: string, id: string) =>
  db.kysely.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();

/** Everything issued under a grant. */
export const deleteRecordsOfGrant = (db: PlatformDb, grantId: string) => db.kysely.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();

// ---- clients registered by people (developer apps)

const CLIENT = 'Client';

export const clientsOwnedBy = (db: PlatformDb, ownerId: string) =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['id', 'payload', 'owner_id', 'created_at'])
    .where('model', '=', CLIENT)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();

export const clientOwnedBy = (db: PlatformDb, ownerId: string, id: string) =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['id', 'payload', 'owner_id', 'created_at'])
    .where('model', '=', CLIENT)
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();

export const insertClient = (db: PlatformDb, ownerId: string, id: string, payload: string, createdAt: string) =>
  db.kysely
    .insertInto('oauth_records')
    .values({
      model: CLIENT,
      id,
      payload,
      grant_id: null,
      user_code: null,
      uid: null,
      owner_id: ownerId,
      created_at: createdAt,
      expires_at: null,
      consumed_at: null,
    })
    .execute();

export const updateClient = (db: PlatformDb, ownerId: string, id: string, payload: string) =>
  db.kysely.updateTable('oauth_records').set({ payload }).where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).execute();

/** Deletes the client and everything issued to it (grants, codes, refresh tokens, sessions' grants); false when it is not the owner's. */
export async function deleteClient(db: PlatformDb, ownerId: string, id: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const res = await tx.kysely.deleteFrom('oauth_records').where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) return false;
    // Grants name their client in the payload; client ids are URL-safe, so the JSON text is exact.
    const grants = await tx.kysely
      .selectFrom('oauth_records')
      .select('id')
      .where('model', '=', 'Grant')
      .where('payload', 'like', `%"clientId":${JSON.stringify(id)}%`)
      .execute();
    const ids = grants.map((g) => g.id);
    if (ids.length > 0) {
      await tx.kysely.deleteFrom('oauth_records').where('grant_id', 'in', ids).execute();
      await tx.kysely.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', ids).execute();
    }
    return true;
  });
}
